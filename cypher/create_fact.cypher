// A derived fact with its provenance and the entities it is about.
MATCH (e:Episode {id: $episode_id})
CREATE (f:Fact)
SET f = $props
CREATE (f)-[:SUPPORTED_BY]->(e)
WITH f
UNWIND $about AS a
MATCH (en:Entity {id: a.entity})
MERGE (f)-[:ABOUT {role: a.role}]->(en)
