// Budgets and failure counts no one has used since the cutoff (epoch seconds) go, a batch at a time.
MATCH (n)
WHERE (n:RateBudget AND n.at < $cutoff) OR (n:AuthFailures AND n.last < $cutoff)
WITH n
LIMIT $limit
DELETE n
RETURN count(*) AS deleted
