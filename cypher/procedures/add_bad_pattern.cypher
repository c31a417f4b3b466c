// Skills: a bad pattern recorded against a version of a skill.
MATCH (s:Skill)
WHERE s.namespace = $namespace AND s.id = $skill_id
CREATE (b:BadPattern)
SET b = $props
CREATE (b)-[:BAD_PATTERN_OF]->(s)
RETURN properties(b) AS pattern, s.id AS skill_id
