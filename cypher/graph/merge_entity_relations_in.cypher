// Repair a split: the source's incoming edges of one type arrive at the target instead.
MATCH (o:Entity)-[r:RELATION_TYPE]->(s:Entity {id: $source, namespace: $namespace})
MATCH (t:Entity {id: $target, namespace: $namespace})
WHERE o <> t
CREATE (o)-[moved:RELATION_TYPE]->(t)
SET moved = properties(r)
DELETE r
