// A key's token bucket, shared by every server: refilled at $rate a second since it was last
// taken from, at most $capacity, then up to $want tokens granted. The bucket's write lock is taken
// before it is read (_LOCK_, set and removed: docs/architecture.md, Concurrency): servers take from
// it in turns.
MERGE (b:RateBudget {key: $key})
ON CREATE SET b.tokens = $capacity, b.at = $now
SET b._LOCK_ = true
SET b.tokens = CASE
      WHEN b.tokens + ($now - b.at) * $rate > $capacity THEN $capacity
      ELSE b.tokens + ($now - b.at) * $rate
    END,
    b.at = $now
WITH b, CASE WHEN b.tokens >= $want THEN $want WHEN b.tokens >= 1 THEN floor(b.tokens) ELSE 0 END AS granted
SET b.tokens = b.tokens - granted
REMOVE b._LOCK_
RETURN toInteger(granted) AS granted, b.tokens AS left
