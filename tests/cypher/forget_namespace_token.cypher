// A store from before namespace tokens: the episode has none, and no record says the migration ran.
MATCH (e:Episode {id: $id})
REMOVE e.namespace_token
WITH count(*) AS changed
MATCH (m:Migration {id: 'namespace_tokens'})
DELETE m
