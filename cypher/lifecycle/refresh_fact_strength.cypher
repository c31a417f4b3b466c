// A fact lost a supporting episode: the edges mirroring it are as strong as its support now.
UNWIND $facts AS fact
MATCH (f:Fact {id: fact})-[:ABOUT]->(:Entity)-[r]-(:Entity)
WHERE r.fact = fact
WITH DISTINCT f, r
SET r.strength = COUNT { (f)-[:SUPPORTED_BY]->(:Episode) }
