// Link facts by SUPERSEDES (a -> b), once.
UNWIND $pairs AS p
MATCH (a:Fact {id: p.a})
MATCH (b:Fact {id: p.b})
MERGE (a)-[:SUPERSEDES]->(b)
