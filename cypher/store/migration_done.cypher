// Whether a one-time data migration has already run on this store.
MATCH (m:Migration {id: $id})
RETURN m.id AS id
