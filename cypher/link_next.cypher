// Session order: the previous episode of a session points at the next one.
MATCH (p:Episode {id: $previous})
MATCH (e:Episode {id: $episode_id})
CREATE (p)-[:NEXT]->(e)
