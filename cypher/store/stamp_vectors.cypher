// Vectors written (store/vector_stamps.py): the namespace of the episodes in $episodes and the facts
// in $facts takes the next number of its vector stream, and they take that number, in the
// transaction that wrote them. The Namespace node's write lock is taken before the counter is read
// (_LOCK_, set and removed: docs/architecture.md, Concurrency) and held until the commit (ArcadeDB's
// optimistic writers collide on it and retry):
// numbers are given in commit order, and a recall that has read number n finds every vector
// written up to n among the memories numbered up to n (store/vector_cache.py). A namespace that
// has no epoch yet takes $epoch.
CALL () {
  UNWIND $episodes AS id
  MATCH (e:Episode {id: id})
  RETURN e AS written
  UNION ALL
  UNWIND $facts AS id
  MATCH (f:Fact {id: id})
  RETURN f AS written
}
WITH written.namespace AS namespace, collect(written) AS memories
ORDER BY namespace
MERGE (n:Namespace {name: namespace})
SET n._LOCK_ = true
SET n.vector_seq = coalesce(n.vector_seq, 0) + 1, n.vector_epoch = coalesce(n.vector_epoch, $epoch)
REMOVE n._LOCK_
WITH n, memories
UNWIND memories AS m
SET m.vector_seq = n.vector_seq
