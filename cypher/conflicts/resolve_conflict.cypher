// Settle an open conflict: each of its facts takes the status chosen for it and leaves the conflict.
UNWIND $facts AS x
MATCH (f:Fact {id: x.id})
WHERE f.namespace = $namespace AND f.conflict = $conflict
SET f.status = x.status, f.conflict = null, f.conflict_kind = null, f.conflict_at = null
RETURN f.id AS id
