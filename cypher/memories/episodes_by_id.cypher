// Episodes by id within a namespace, every property a client may read (never the vector).
// The maps come back as one list in one record (Transaction.run_listed).
UNWIND $ids AS id
MATCH (m:Episode {id: id})
WHERE m.namespace = $namespace
RETURN collect(m {
  .id, .namespace, .content, .role, .agent, .session, .occurred_at, .captured_at, .content_hash,
  .importance, .pinned, .tags, .observed_by, .category, .access_count, .last_accessed_at, .forgotten_at, .state, .metadata,
  embedded: NOT m.embedding_pending
}) AS rows
