// Erase one episode with its relationships (MENTIONS, IN_SESSION, NEXT, SUPPORTED_BY), and take it
// off its namespace's count, under the namespace's write lock taken first (_LOCK_, set and removed:
// docs/architecture.md, Concurrency).
MATCH (e:Episode {id: $id})
WHERE e.namespace = $namespace
DETACH DELETE e
WITH count(*) AS erased
MATCH (n:Namespace {name: $namespace})
SET n._LOCK_ = true
SET n.episodes = n.episodes - erased
REMOVE n._LOCK_
