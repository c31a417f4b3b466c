// Graph channel, the memories of the seed nodes: episodes that mention an entity or a concept,
// facts about an entity and (with $fact_concepts) facts that mention a concept, as they were at $as_of and known at $known_at, never forgotten ones.
// Ids only; the hits are authorized later like every channel's.
// The rows come back as one list in one record (Transaction.run_listed).
UNWIND $nodes AS id
CALL (id) {
  MATCH (:Entity {id: id})<-[:MENTIONS]-(m:Episode)
  RETURN m
  UNION
  MATCH (:Concept {id: id})<-[:MENTIONS_CONCEPT]-(m:Episode)
  RETURN m
  UNION
  MATCH (:Entity {id: id})<-[:ABOUT]-(m:Fact)
  RETURN m
  UNION
  MATCH (:Concept {id: id})<-[:MENTIONS_CONCEPT]-(m:Fact)
  WHERE $fact_concepts
  RETURN m
}
WITH id, m
WHERE m.namespace = $namespace AND m.forgotten_at IS NULL
  AND coalesce(m.occurred_at, m.valid_from, m.recorded_at) <= $as_of
  AND coalesce(m.captured_at, m.recorded_at) <= $known_at
  AND (m.valid_to IS NULL OR m.valid_to > $as_of)
RETURN collect({node: id, memory: m.id, label: labels(m)[0]}) AS rows
