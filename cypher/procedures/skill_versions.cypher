// Skills: every version of a skill by name, newest first.
MATCH (s:Skill)
WHERE s.namespace = $namespace AND s.name = $skill_name
RETURN properties(s) AS skill
ORDER BY s.version DESC
