// Entities as consolidation leaves them, with the name embeddings given.
UNWIND $rows AS row
CREATE (:Entity {
  id: row.id, namespace: row.namespace, type: row.type, canonical: row.canonical, name: row.name,
  embedding: row.embedding, aliases: [], mention_count: 1, attributes: '{}'
})
