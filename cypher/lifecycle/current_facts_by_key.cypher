// The current facts of a kind under a key: what a newly remembered fact with that key supersedes.
MATCH (f:Fact {key: $key})
WHERE f.namespace = $namespace AND f.kind = $kind AND f.status = 'active' AND f.forgotten_at IS NULL
RETURN f.id AS id, f.kind AS kind, f.key AS key, f.subject AS subject, f.status AS status
