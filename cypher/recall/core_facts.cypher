// Core memories (persona, red lines): at the top of every recall bundle, whatever the query.
MATCH (f:Fact {namespace: $namespace, kind: 'core'})
WHERE f.status = 'active' AND f.forgotten_at IS NULL
RETURN f.id AS id
ORDER BY f.importance DESC, f.recorded_at
LIMIT $limit
