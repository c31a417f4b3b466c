// Edges of one type from a subject that hold now as currently known. RELATION_TYPE is replaced
// by a type of the closed vocabulary (extract/relation_types.toml) before the query runs.
MATCH (s:Entity {id: $subject})-[r:RELATION_TYPE]->(o:Entity)
WHERE r.valid_to IS NULL AND r.expired_at IS NULL
RETURN o.id AS object, r.fact AS fact, r.valid_from AS valid_from, r.confidence AS confidence
