// Whether a namespace without a record of its own holds facts (remembered, never captured in).
MATCH (f:Fact)
WHERE f.namespace = $namespace
RETURN f.id AS id
LIMIT 1
