// Entities as consolidation leaves them, with the name embeddings given; a row without a
// namespace_token makes one as a version before entity search was scoped by namespace did.
UNWIND $rows AS row
CREATE (:Entity {
  id: row.id, namespace: row.namespace, namespace_token: row.namespace_token, type: row.type,
  canonical: row.canonical, name: row.name, embedding: row.embedding, aliases: [], mention_count: 1,
  attributes: '{}'
})
