// A page of a namespace's episodes, newest first; ids are ULIDs, so id order is capture order.
MATCH (m:Episode)
WHERE m.namespace = $namespace AND m.forgotten_at IS NULL AND ($before IS NULL OR m.id < $before)
RETURN m.id AS id
ORDER BY m.id DESC
LIMIT $limit
