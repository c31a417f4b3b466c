// The fact to promote, with every property, and its current copy in the target namespace if any.
MATCH (f:Fact {id: $id})
WHERE f.namespace = $namespace
OPTIONAL MATCH (c:Fact)
WHERE c.namespace = $target AND c.promoted_from = f.id AND c.status = 'active'
RETURN properties(f) AS fact, c.id AS copy
