// A typed, bi-temporal edge mirroring a fact. RELATION_TYPE is replaced by a type of the closed
// vocabulary (extract/relation_types.toml) before the query runs.
MATCH (s:Entity {id: $subject})
MATCH (o:Entity {id: $object})
CREATE (s)-[r:RELATION_TYPE]->(o)
SET r.valid_from = $valid_from, r.valid_to = $valid_to, r.recorded_at = $now,
    r.expired_at = CASE WHEN $expired THEN $now ELSE null END,
    r.confidence = $confidence, r.fact = $fact, r.strength = $strength
