// Entities named in one sentence; count = how many episodes name both. An episode adds to the
// count the first time it is consolidated only (first_time), so a replay changes nothing.
UNWIND $pairs AS p
MATCH (a:Entity {id: p.a})
MATCH (b:Entity {id: p.b})
MERGE (a)-[c:CO_OCCURS]->(b)
  ON CREATE SET c.count = 0
SET c.count = c.count + CASE WHEN p.first_time THEN 1 ELSE 0 END
