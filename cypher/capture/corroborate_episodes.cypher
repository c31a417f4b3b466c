// Other agents captured content already stored: remember who saw it, up to $cap observers. The
// episode's write lock is taken before its observers are read (_LOCK_, set and removed:
// docs/architecture.md, Concurrency): two corroborations at once both count.
UNWIND $rows AS row
MATCH (e:Episode {id: row.id})
SET e._LOCK_ = true
WITH e, [agent IN row.agents WHERE NOT agent IN e.observed_by] AS fresh
SET e.observed_by = (e.observed_by + fresh)[0..$cap]
REMOVE e._LOCK_
