// Skills: one version of a skill by name in a namespace.
MATCH (s:Skill)
WHERE s.namespace = $namespace AND s.name = $skill_name AND s.version = $version
RETURN properties(s) AS skill
