// Live facts about the same subject with the same predicate whose polarity is the opposite.
MATCH (f:Fact {namespace: $namespace, predicate: $predicate})-[:ABOUT {role: 'subject'}]->(:Entity {id: $subject})
WHERE f.status = 'active' AND f.id <> $fact AND f.polarity = $opposite
RETURN f.id AS id, f.confidence AS confidence, f.recorded_at AS recorded_at
