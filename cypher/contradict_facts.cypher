// Two facts that cannot both hold: link them and quarantine the weaker one.
MATCH (a:Fact {id: $a})
MATCH (b:Fact {id: $b})
MERGE (a)-[:CONTRADICTS]->(b)
WITH a, b
MATCH (q:Fact {id: $quarantined})
SET q.status = 'quarantined'
