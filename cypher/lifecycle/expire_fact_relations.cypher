// The typed edges mirroring a fact leave the graph as currently known (transaction time closes);
// they are found from the entities the fact is about, as edges have no index of their own.
MATCH (:Fact {id: $fact})-[:ABOUT]->(:Entity)-[r]-(:Entity)
WHERE r.fact = $fact AND r.expired_at IS NULL
SET r.expired_at = $now
