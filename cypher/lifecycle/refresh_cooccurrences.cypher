// After an erasure, CO_OCCURS between surviving entities counts at most the episodes that still
// mention both; an edge no episode supports any more is erased.
UNWIND $entities AS entity
MATCH (a:Entity {id: entity})-[c:CO_OCCURS]-(b:Entity)
WITH DISTINCT c, a, b
CALL (a, b) {
  MATCH (x:Episode)-[:MENTIONS]->(a)
  WHERE EXISTS { (x)-[:MENTIONS]->(b) }
  RETURN count(DISTINCT x) AS together
}
WITH c, together
WHERE c.count > together
SET c.count = together
WITH c
WHERE c.count = 0
DELETE c
