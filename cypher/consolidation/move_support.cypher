// An episode's statement belongs to another version of the fact than the one it supported.
UNWIND $moves AS m
MATCH (:Fact {id: m.source})-[old:SUPPORTED_BY]->(e:Episode {id: m.episode})
DELETE old
WITH m, e
MATCH (f:Fact {id: m.target})
MERGE (f)-[r:SUPPORTED_BY]->(e)
SET r.position = m.position, r.statement = m.statement, r.confidence = m.confidence, r.kind = m.kind,
    r.concepts = m.concepts, r.at = m.at, r.until = m.until, r.precision = m.precision
