// A key's token bucket, shared by every server: refilled at $rate a second since it was last
// taken from, at most $capacity, then up to $want tokens granted. The first SET reads what it
// writes, so Neo4j locks the bucket before reading it: servers take from it in turns.
MERGE (b:RateBudget {key: $key})
ON CREATE SET b.tokens = $capacity, b.at = $now
SET b.tokens = CASE
      WHEN b.tokens + ($now - b.at) * $rate > $capacity THEN $capacity
      ELSE b.tokens + ($now - b.at) * $rate
    END,
    b.at = $now
WITH b, CASE WHEN b.tokens >= $want THEN $want WHEN b.tokens >= 1 THEN floor(b.tokens) ELSE 0 END AS granted
SET b.tokens = b.tokens - granted
RETURN toInteger(granted) AS granted, b.tokens AS left
