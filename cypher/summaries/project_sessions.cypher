// Projects: the sessions a project groups, oldest first (the namespace index finds its sessions).
MATCH (s:Session {namespace: $namespace})
WHERE s.project = $project
RETURN s.external_id AS session
ORDER BY s.started_at, s.id
