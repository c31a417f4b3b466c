// The current copies promoted from a namespace's facts, and whether each source still exists.
MATCH (c:Fact)
WHERE c.promoted_from_namespace = $namespace AND c.status = 'active'
OPTIONAL MATCH (s:Fact {id: c.promoted_from})
RETURN collect({copy: c.id, target: c.namespace, source: c.promoted_from, exists: s IS NOT NULL}) AS rows
