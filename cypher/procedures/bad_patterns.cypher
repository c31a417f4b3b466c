// Skills: the bad patterns recorded against any version of a skill, oldest first.
MATCH (b:BadPattern)-[:BAD_PATTERN_OF]->(s:Skill)
WHERE s.namespace = $namespace AND s.name = $skill_name
RETURN properties(b) AS pattern, s.id AS skill_id
ORDER BY b.created_at, b.id
