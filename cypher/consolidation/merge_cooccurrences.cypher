// Entities named in one sentence; count = how many episodes name both. An episode adds to the
// count the first time it is consolidated only (first_time), so a replay changes nothing. The
// edge's write lock is taken before its count is read (_LOCK_, set and removed:
// docs/architecture.md, Concurrency).
UNWIND $pairs AS p
MATCH (a:Entity {id: p.a})
MATCH (b:Entity {id: p.b})
MERGE (a)-[c:CO_OCCURS]->(b)
  ON CREATE SET c.count = 0
SET c._LOCK_ = true
SET c.count = c.count + CASE WHEN p.first_time THEN 1 ELSE 0 END
REMOVE c._LOCK_
