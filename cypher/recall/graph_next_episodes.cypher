// Graph channel, conversation order: the episodes just before and after the given memories in
// their session (NEXT), or before and after the episodes that support a given fact: a question
// and its answer are two turns. Only episodes as they were at $as_of, known at $known_at and not
// forgotten. The rows come back as one list in one record (Transaction.run_listed).
UNWIND $memories AS id
CALL (id) {
  MATCH (:Episode {id: id})-[:NEXT]-(m:Episode)
  RETURN m
  UNION
  MATCH (:Fact {id: id})-[:SUPPORTED_BY]->(:Episode)-[:NEXT]-(m:Episode)
  RETURN m
}
WITH id, m
WHERE m.namespace = $namespace AND m.forgotten_at IS NULL
  AND m.occurred_at <= $as_of AND m.captured_at <= $known_at
RETURN collect({memory: id, neighbour: m.id}) AS rows
