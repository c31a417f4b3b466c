// Entities named in one sentence; count = how many episodes name both.
UNWIND $pairs AS p
MATCH (a:Entity {id: p.a})
MATCH (b:Entity {id: p.b})
MERGE (a)-[c:CO_OCCURS]->(b)
WITH a, b, c
OPTIONAL MATCH (x:Episode)-[:MENTIONS]->(a)
WHERE EXISTS { (x)-[:MENTIONS]->(b) }
WITH c, count(DISTINCT x) AS together
SET c.count = together
