// Link facts by CONTRADICTS (a -> b), once.
UNWIND $pairs AS p
MATCH (a:Fact {id: p.a})
MATCH (b:Fact {id: p.b})
MERGE (a)-[:CONTRADICTS]->(b)
