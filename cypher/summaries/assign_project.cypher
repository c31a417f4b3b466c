// Projects: put a session in a project, or out of every project ($project null). Sessions are
// few per namespace, so a project is a property of its sessions rather than a node of its own.
MATCH (s:Session {namespace: $namespace, external_id: $session})
SET s.project = $project
RETURN s.external_id AS session, s.project AS project
