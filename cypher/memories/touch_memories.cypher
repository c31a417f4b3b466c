// Count recalls of these memories: it slows their decay (docs/architecture.md, Recall: the access boost). Each touch is
// {id, count}: the recalls since the last write that returned the memory. The memory's write lock
// is taken before its count is read (_LOCK_, set and removed: docs/architecture.md, Concurrency).
UNWIND $touches AS touch
CALL (touch) {
  MATCH (m:Episode {id: touch.id}) WHERE m.namespace = $namespace RETURN m
  UNION
  MATCH (m:Fact {id: touch.id}) WHERE m.namespace = $namespace RETURN m
}
SET m._LOCK_ = true
SET m.access_count = coalesce(m.access_count, 0) + touch.count, m.last_accessed_at = $at
REMOVE m._LOCK_
