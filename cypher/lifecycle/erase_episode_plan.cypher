// What erasing an episode takes with it: the facts it alone supports, the facts that only lose
// one supporter, the entities it mentions and its session.
MATCH (e:Episode {id: $id})
WHERE e.namespace = $namespace
RETURN [(f:Fact)-[:SUPPORTED_BY]->(e) WHERE COUNT { (f)-[:SUPPORTED_BY]->(:Episode) } = 1 | f.id] AS facts,
       [(f:Fact)-[:SUPPORTED_BY]->(e) WHERE COUNT { (f)-[:SUPPORTED_BY]->(:Episode) } > 1 | f.id] AS weakened,
       [(e)-[:MENTIONS]->(en:Entity) | en.id] AS entities,
       [(e)-[:IN_SESSION]->(s:Session) | s.id] AS sessions
