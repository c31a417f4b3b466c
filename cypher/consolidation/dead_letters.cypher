MATCH (e:Episode)
WHERE ($namespace IS NULL OR e.namespace = $namespace) AND e.state = 'failed'
RETURN e.id AS id, e.namespace AS namespace, e.attempts AS attempts, e.last_error AS error
ORDER BY e.id
LIMIT $limit
