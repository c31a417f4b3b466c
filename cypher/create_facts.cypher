// Derived facts, one per row, each with its provenance and the entities it is about.
UNWIND $facts AS x
MATCH (e:Episode {id: x.episode_id})
CREATE (f:Fact)
SET f = x.props
CREATE (f)-[:SUPPORTED_BY]->(e)
WITH f, x
UNWIND x.about AS a
MATCH (en:Entity {id: a.entity})
MERGE (f)-[:ABOUT {role: a.role}]->(en)
