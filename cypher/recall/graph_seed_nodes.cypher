// Graph channel, seeds (docs/architecture.md, Recall): the entities the query names ($entities), the concepts whose
// keys the query's noun phrases match ($concept_keys), the entities a named one has a typed edge
// with (a stated relation, held at $as_of and believed at $known_at; CO_OCCURS is only proximity),
// and the entities and concepts of the top keyword and vector hits ($hits: episodes directly,
// facts through what they are about and the episodes that support them). Each comes with what it
// is linked to (`via`: the hit or the named entity; null for the query's own) and how many
// memories it links (its document frequency, for the idf and the hub cap). A typed edge's neighbour
// also comes with what its strength is computed from (kernel/strength.py): the episodes supporting
// the edge's fact as of the query's times, the last of them, and the edge's confidence; null for
// the other rows.
CALL () {
  UNWIND $entities AS id
  MATCH (n:Entity {id: id})
  RETURN n, null AS via, null AS supports, null AS last_support, null AS confidence
  UNION
  UNWIND $concept_keys AS key
  MATCH (n:Concept {namespace: $namespace, key: key})
  RETURN n, null AS via, null AS supports, null AS last_support, null AS confidence
  UNION
  UNWIND $entities AS id
  MATCH (:Entity {id: id})-[r]-(n:Entity)
  WHERE type(r) <> 'CO_OCCURS' AND r.forgotten_at IS NULL
    AND (r.valid_from IS NULL OR r.valid_from <= $as_of) AND (r.valid_to IS NULL OR r.valid_to > $as_of)
    AND (r.recorded_at IS NULL OR r.recorded_at <= $known_at) AND (r.expired_at IS NULL OR r.expired_at > $known_at)
  OPTIONAL MATCH (:Fact {id: r.fact})-[:SUPPORTED_BY]->(e:Episode)
  WHERE e.forgotten_at IS NULL AND coalesce(e.occurred_at, e.captured_at) <= $as_of AND e.captured_at <= $known_at
  WITH n, id, r, count(DISTINCT e) AS supports, max(coalesce(e.occurred_at, e.captured_at)) AS last_support
  RETURN n, id AS via, supports, coalesce(last_support, r.recorded_at) AS last_support, r.confidence AS confidence
  UNION
  UNWIND $hits AS id
  MATCH (:Episode {id: id})-[:MENTIONS|MENTIONS_CONCEPT]->(n)
  RETURN n, id AS via, null AS supports, null AS last_support, null AS confidence
  UNION
  UNWIND $hits AS id
  MATCH (:Fact {id: id})-[:ABOUT]->(n:Entity)
  RETURN n, id AS via, null AS supports, null AS last_support, null AS confidence
  UNION
  UNWIND $hits AS id
  MATCH (:Fact {id: id})-[:SUPPORTED_BY]->(:Episode)-[:MENTIONS_CONCEPT]->(n:Concept)
  RETURN n, id AS via, null AS supports, null AS last_support, null AS confidence
}
WITH n, via, supports, last_support, confidence
WHERE n.namespace = $namespace AND n.merged_into IS NULL
RETURN n.id AS id, labels(n)[0] AS label, coalesce(n.mention_count, n.episode_count, 1) AS df, via,
       supports, last_support, confidence
