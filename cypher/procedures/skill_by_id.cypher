// Skills: one version by id in a namespace.
MATCH (s:Skill)
WHERE s.namespace = $namespace AND s.id = $id
RETURN properties(s) AS skill
