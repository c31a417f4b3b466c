// Repair a split: the source's outgoing edges of one type leave from the target instead, with all
// their times and provenance. RELATION_TYPE: see create_relation.cypher.
MATCH (s:Entity {id: $source, namespace: $namespace})-[r:RELATION_TYPE]->(o:Entity)
MATCH (t:Entity {id: $target, namespace: $namespace})
WHERE o <> t
CREATE (t)-[moved:RELATION_TYPE]->(o)
SET moved = properties(r)
DELETE r
