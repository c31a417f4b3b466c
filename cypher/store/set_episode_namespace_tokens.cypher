// Episodes stored before full-text search was scoped by namespace get their namespace's token.
UNWIND $scopes AS scope
MATCH (m:Episode {namespace: scope.namespace})
WHERE m.namespace_token IS NULL
SET m.namespace_token = scope.token
