// Current facts with this identity: remembering one of them again stores nothing new.
MATCH (f:Fact {namespace: $namespace, content_hash: $hash})
WHERE f.status = 'active' AND f.forgotten_at IS NULL
RETURN f.id AS id, f.key AS key, f.subject AS subject
