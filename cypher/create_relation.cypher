// A typed, bi-temporal edge mirroring a fact. RELATION_TYPE: see open_relations.cypher.
MATCH (s:Entity {id: $subject})
MATCH (o:Entity {id: $object})
CREATE (s)-[r:RELATION_TYPE]->(o)
SET r.valid_from = $valid_from, r.valid_to = $valid_to, r.recorded_at = $now, r.expired_at = null,
    r.confidence = $confidence, r.fact = $fact, r.strength = 1
