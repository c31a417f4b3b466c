// Summaries: a summary cites exactly the episodes its lines came from (provenance).
MATCH (m:Summary {id: $id})
OPTIONAL MATCH (m)-[old:SUMMARIZES]->(:Episode)
DELETE old
WITH DISTINCT m
UNWIND $episodes AS episode_id
MATCH (e:Episode {id: episode_id})
WHERE e.namespace = m.namespace
CREATE (m)-[:SUMMARIZES]->(e)
