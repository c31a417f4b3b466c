// A page of a namespace's facts, newest first; ids are ULIDs, so id order is creation order.
MATCH (m:Fact)
WHERE m.namespace = $namespace AND m.forgotten_at IS NULL AND ($before IS NULL OR m.id < $before)
RETURN m.id AS id
ORDER BY m.id DESC
LIMIT $limit
