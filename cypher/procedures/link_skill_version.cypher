// Skills: a new version points at the one it follows.
MATCH (s:Skill {id: $id})
MATCH (p:Skill {id: $previous})
WHERE s.namespace = $namespace AND p.namespace = $namespace
CREATE (s)-[:PREVIOUS_VERSION]->(p)
