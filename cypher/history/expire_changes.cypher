// Change record retention: changes older than the cutoff go, a batch at a time.
MATCH (c:Change)
WHERE c.at < $cutoff
WITH c
LIMIT $limit
DELETE c
RETURN count(*) AS deleted
