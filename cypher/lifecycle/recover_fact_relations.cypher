// Recovered facts get back the typed edges that forgetting them had closed.
UNWIND $facts AS fact
MATCH (:Fact {id: fact})-[:ABOUT]->(:Entity)-[r]-(:Entity)
WHERE r.fact = fact AND r.forgotten_at IS NOT NULL
WITH DISTINCT r
SET r.expired_at = null
REMOVE r.forgotten_at
