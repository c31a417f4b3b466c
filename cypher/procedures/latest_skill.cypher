// Skills: the newest version of a skill by name in a namespace (none if it has none).
MATCH (s:Skill)
WHERE s.namespace = $namespace AND s.name = $skill_name
RETURN properties(s) AS skill
ORDER BY s.version DESC
LIMIT 1
