// Derived facts, one per row, each with its provenance (and what the episode's statement said)
// and the entities it is about. Its concept links follow from its support (sync_fact_concepts).
UNWIND $facts AS x
MATCH (e:Episode {id: x.episode_id})
CREATE (f:Fact)
SET f = x.props
CREATE (f)-[s:SUPPORTED_BY]->(e)
SET s.position = x.said.position, s.statement = x.said.statement, s.confidence = x.said.confidence,
    s.kind = x.said.kind, s.concepts = x.said.concepts, s.at = x.said.at, s.until = x.said.until,
    s.precision = x.said.precision
WITH f, x
UNWIND x.about AS a
MATCH (en:Entity {id: a.entity})
MERGE (f)-[:ABOUT {role: a.role}]->(en)
