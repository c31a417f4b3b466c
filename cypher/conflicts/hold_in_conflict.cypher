// Hold facts quarantined in an open conflict (conflict mode ask) until resolveConflict settles it.
UNWIND $facts AS id
MATCH (f:Fact {id: id})
WHERE f.namespace = $namespace
SET f.conflict = $conflict, f.conflict_kind = $kind, f.conflict_at = $now
