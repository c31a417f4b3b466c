// Every fact about an entity with its validity interval and version links, oldest first.
MATCH (f:Fact)-[:ABOUT]->(:Entity {id: $id, namespace: $namespace})
WITH DISTINCT f
RETURN f.id AS id,
       [(f)-[:SUPERSEDES]->(older:Fact) | older.id] AS supersedes,
       [(newer:Fact)-[:SUPERSEDES]->(f) | newer.id] AS superseded_by,
       [(f)-[:CONTRADICTS]-(other:Fact) | other.id] AS contradicts
ORDER BY f.valid_from, f.recorded_at
