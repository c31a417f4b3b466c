// Before an episode is erased: its concepts lose one episode, and a concept no other episode is
// about goes with it, so that nothing derived from the erased text stays behind. Each concept's
// write lock is taken before its count is read (_LOCK_, set and removed: docs/architecture.md,
// Concurrency).
MATCH (e:Episode {id: $id})-[:MENTIONS_CONCEPT]->(c:Concept)
WHERE e.namespace = $namespace
SET c._LOCK_ = true
SET c.episode_count = c.episode_count - 1
REMOVE c._LOCK_
WITH c
WHERE c.episode_count <= 0
DETACH DELETE c
