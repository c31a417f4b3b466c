// The typed edges of forgotten facts leave the graph as currently known; forgotten_at marks the
// ones a recover restores (an edge closed before stays closed).
UNWIND $facts AS fact
MATCH (:Fact {id: fact})-[:ABOUT]->(:Entity)-[r]-(:Entity)
WHERE r.fact = fact AND r.expired_at IS NULL
WITH DISTINCT r
SET r.expired_at = $at, r.forgotten_at = $at
