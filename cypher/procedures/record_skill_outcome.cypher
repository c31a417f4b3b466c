// Skills: count one outcome of a version; one statement, under the skill's write lock taken first
// (_LOCK_, set and removed: docs/architecture.md, Concurrency), so concurrent outcomes all count.
MATCH (s:Skill)
WHERE s.namespace = $namespace AND s.id = $id
SET s._LOCK_ = true
SET s.successes = s.successes + $successes,
    s.failures = s.failures + $failures,
    s.last_outcome_at = $at
REMOVE s._LOCK_
RETURN properties(s) AS skill
