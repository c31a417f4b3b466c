// Graph channel, one step of the walk (recall/graph.py) in one round trip: the seed nodes, then
// every new node's memories.
// Seeds (docs/architecture.md, Recall): the entities the query names ($entities), the concepts
// whose keys the query's noun phrases match ($concept_keys), the entities a named one has a typed
// edge with (a stated relation, held at $as_of and believed at $known_at; CO_OCCURS is only
// proximity), and the entities and concepts of the given memories ($hits: episodes directly, facts
// through what they are about and the episodes that support them). Each comes with what it is
// linked to (`via`: the hit or the named entity; null for the query's own) and how many memories
// it links (its document frequency, for the idf). A typed edge's neighbour also comes with what its
// strength is computed from (kernel/strength.py): the episodes supporting the edge's fact as of the
// query's times, the last of them (as ISO text: store/rows.py, Query.times_as_text), and the edge's
// confidence; null for the other rows. Hubs are left out here, before their memories
// are read: a node linked to more than $hub_share of the namespace's episodes (and to more than
// $min_hub_df memories), like the speakers of a conversation; so are concepts unless $concepts.
// Memories of the seed nodes not in $expanded (read by an earlier step): episodes that mention an
// entity or a concept, facts about an entity and (with $fact_concepts) facts that mention a
// concept, as they were at $as_of and known at $known_at, never forgotten ones. Ids only; the hits
// are authorized later like every channel's.
// One record: the namespace's episode count (the idf's N), the seed rows and each new node's
// memories, its episodes' ids and its facts' apart (a list of ids decodes at a fraction of the cost
// of a map per link).
OPTIONAL MATCH (space:Namespace {name: $namespace})
WITH coalesce(space.episodes, 0) AS episodes
WITH episodes, CASE WHEN $hub_share * episodes > $min_hub_df THEN $hub_share * episodes ELSE $min_hub_df END AS hub_df
CALL (hub_df) {
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
    RETURN n, id AS via, supports, toString(coalesce(last_support, r.recorded_at)) AS last_support, r.confidence AS confidence
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
  WITH n, via, supports, last_support, confidence, coalesce(n.mention_count, n.episode_count, 1) AS df
  WHERE n.namespace = $namespace AND n.merged_into IS NULL AND ($concepts OR NOT n:Concept) AND df <= hub_df
  RETURN collect({id: n.id, label: labels(n)[0], df: df, via: via, supports: supports, last_support: last_support,
                  confidence: confidence}) AS seeds,
         collect(DISTINCT n.id) AS nodes
}
CALL (nodes) {
  UNWIND [id IN nodes WHERE NOT id IN $expanded] AS id
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
  WITH id, collect(CASE WHEN m:Episode THEN m.id END) AS node_episodes, collect(CASE WHEN m:Fact THEN m.id END) AS node_facts
  RETURN collect({node: id, episodes: node_episodes, facts: node_facts}) AS links
}
RETURN episodes, seeds, links
