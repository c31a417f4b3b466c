// Erase one episode with its relationships (MENTIONS, IN_SESSION, NEXT, SUPPORTED_BY), and take it
// off its namespace's count.
MATCH (e:Episode {id: $id})
WHERE e.namespace = $namespace
DETACH DELETE e
WITH count(*) AS erased
MATCH (n:Namespace {name: $namespace})
SET n.episodes = n.episodes - erased
