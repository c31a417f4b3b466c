// Repair a split: the source's co-occurrences become the target's, counted again from episodes.
MATCH (s:Entity {id: $source, namespace: $namespace})
MATCH (t:Entity {id: $target, namespace: $namespace})
OPTIONAL MATCH (s)-[c:CO_OCCURS]-(x:Entity)
WITH s, t, c, x
WHERE c IS NOT NULL
DELETE c
WITH DISTINCT t, x
WHERE x <> t AND NOT EXISTS { (t)-[:CO_OCCURS]-(x) }
CREATE (t)-[added:CO_OCCURS]->(x)
WITH t, x, added
OPTIONAL MATCH (e:Episode)-[:MENTIONS]->(t)
WHERE EXISTS { (e)-[:MENTIONS]->(x) }
WITH added, count(DISTINCT e) AS together
SET added.count = together
