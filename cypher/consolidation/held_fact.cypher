// The fact a blocked relation statement is kept as (blocking.py), if one was: another statement
// of it supports that fact instead of making a second one.
MATCH (f:Fact {namespace: $namespace, content_hash: $hash})
WHERE f.blocked_at IS NOT NULL AND f.status = 'quarantined' AND f.forgotten_at IS NULL AND f.expired_at IS NULL
RETURN f.id AS id
ORDER BY f.id
LIMIT 1
