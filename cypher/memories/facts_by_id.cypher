// Facts by id within a namespace, with the episodes that support them (never the vector).
// The maps come back as one list in one record (Transaction.run_listed).
UNWIND $ids AS id
MATCH (m:Fact {id: id})
WHERE m.namespace = $namespace
RETURN collect(m {
  .id, .namespace, .statement, .kind, .key, .subject, .predicate, .object, .confidence,
  .importance, .version, .status, .origin, .category, .valid_from, .valid_to, .valid_precision, .recorded_at, .expired_at,
  .pinned, .tags, .access_count, .last_accessed_at, .forgotten_at,
  supported_by: [(m)-[:SUPPORTED_BY]->(e:Episode) | e.id]
}) AS rows
