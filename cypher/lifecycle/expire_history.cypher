// History retention: events older than the cutoff go, a batch at a time.
MATCH (h:History)
WHERE h.at < $cutoff AND ($namespace IS NULL OR h.namespace = $namespace)
WITH h
LIMIT $limit
DELETE h
RETURN count(*) AS deleted
