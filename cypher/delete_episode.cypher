// Erase one episode with its relationships (MENTIONS, IN_SESSION, NEXT, SUPPORTED_BY).
MATCH (e:Episode {id: $id})
WHERE e.namespace = $namespace
DETACH DELETE e
