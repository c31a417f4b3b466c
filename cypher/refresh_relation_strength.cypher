// strength = the number of episodes supporting the edge's fact.
MATCH (:Entity {id: $subject})-[r]->(:Entity {id: $object})
WHERE r.fact = $fact
SET r.strength = COUNT { (:Fact {id: $fact})-[:SUPPORTED_BY]->(:Episode) }
