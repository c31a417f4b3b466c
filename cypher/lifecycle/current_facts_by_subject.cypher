// The current facts of a kind about a subject: a new status of something supersedes the old one.
MATCH (f:Fact {subject: $subject})
WHERE f.namespace = $namespace AND f.kind = $kind AND f.status = 'active' AND f.forgotten_at IS NULL
RETURN f.id AS id, f.kind AS kind, f.key AS key, f.subject AS subject, f.status AS status
