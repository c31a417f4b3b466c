// A store from before entity search was scoped by namespace: no record says the migration ran.
MATCH (m:Migration {id: 'entity_namespace_tokens'})
DELETE m
