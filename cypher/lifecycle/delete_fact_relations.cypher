// Erase the typed edges these facts created; edges are found from the entities each fact is
// about, as they have no index of their own.
UNWIND $facts AS fact
MATCH (:Fact {id: fact})-[:ABOUT]->(:Entity)-[r]-(:Entity)
WHERE r.fact = fact
WITH DISTINCT r
DELETE r
