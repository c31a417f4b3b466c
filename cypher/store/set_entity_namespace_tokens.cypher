// Entities stored before entity search was scoped by namespace get their namespace's token.
UNWIND $scopes AS scope
MATCH (n:Entity {namespace: scope.namespace})
WHERE n.namespace_token IS NULL
SET n.namespace_token = scope.token
