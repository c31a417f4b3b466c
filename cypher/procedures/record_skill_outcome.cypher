// Skills: count one outcome of a version; one statement, so concurrent outcomes all count.
MATCH (s:Skill)
WHERE s.namespace = $namespace AND s.id = $id
SET s.successes = s.successes + $successes,
    s.failures = s.failures + $failures,
    s.last_outcome_at = $at
RETURN properties(s) AS skill
