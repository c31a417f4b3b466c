// A namespace's graph as the graph channel walks it (graph_walk.cypher, graph_next_episodes.cypher),
// for a process's copy (store/graph_copy.py), which applies the walk's filters in process: its
// entities and concepts with their document frequency (merged ones too: a merged entity is no seed
// but its typed edges are walked from it); the typed edges between its entities with what the
// walk's time filters and strength read; its episodes and facts with the times the filters read
// (as ISO text: store/rows.py, Query.times_as_text); the links the walk follows, as id pairs; and
// the names recall resolves a question's names by, as entities_by_key.cypher finds them (each live
// entity by its canonical key, any entity by a user alias's key), and each live entity's name and
// other names, which the spelling check reads (entity_candidates.cypher).
// The graph's version first (store/graph_stamps.py): a write that commits while the rest is read
// gives the namespace another, so the copy is read again rather than kept with half of it.
// One record of lists: a list of lists decodes at a fraction of the cost of a map per row.
OPTIONAL MATCH (space:Namespace {name: $namespace})
WITH space.graph_version AS version
CALL () {
  MATCH (n:Entity {namespace: $namespace})
  RETURN collect([n.id, 'Entity', coalesce(n.mention_count, n.episode_count, 1), n.merged_into IS NULL, null]) AS entities
}
CALL () {
  MATCH (n:Concept {namespace: $namespace})
  RETURN collect([n.id, 'Concept', coalesce(n.mention_count, n.episode_count, 1), n.merged_into IS NULL, n.key]) AS concepts
}
CALL () {
  MATCH (a:Entity {namespace: $namespace})-[r]-(b:Entity)
  WHERE type(r) <> 'CO_OCCURS'
  RETURN collect({from: a.id, to: b.id, forgotten: r.forgotten_at IS NOT NULL, valid_from: toString(r.valid_from),
                  valid_to: toString(r.valid_to), recorded_at: toString(r.recorded_at),
                  expired_at: toString(r.expired_at), fact: r.fact, confidence: r.confidence}) AS edges
}
CALL () {
  MATCH (m:Episode {namespace: $namespace})
  RETURN collect([m.id, m.forgotten_at IS NOT NULL, toString(coalesce(m.occurred_at, m.valid_from, m.recorded_at)),
                  toString(coalesce(m.captured_at, m.recorded_at)), toString(m.valid_to),
                  toString(m.occurred_at), toString(m.captured_at)]) AS episodes
}
CALL () {
  MATCH (m:Fact {namespace: $namespace})
  RETURN collect([m.id, m.forgotten_at IS NOT NULL, toString(coalesce(m.occurred_at, m.valid_from, m.recorded_at)),
                  toString(coalesce(m.captured_at, m.recorded_at)), toString(m.valid_to)]) AS facts
}
CALL () {
  MATCH (m:Episode {namespace: $namespace})-[:MENTIONS|MENTIONS_CONCEPT]->(n)
  RETURN collect([m.id, n.id]) AS mentions
}
CALL () {
  MATCH (m:Fact {namespace: $namespace})-[:ABOUT]->(n:Entity)
  RETURN collect([m.id, n.id]) AS about
}
CALL () {
  MATCH (m:Fact {namespace: $namespace})-[:MENTIONS_CONCEPT]->(n:Concept)
  RETURN collect([m.id, n.id]) AS fact_concepts
}
CALL () {
  MATCH (m:Fact {namespace: $namespace})-[:SUPPORTED_BY]->(e:Episode)
  RETURN collect([m.id, e.id]) AS support
}
CALL () {
  MATCH (m:Episode {namespace: $namespace})-[:NEXT]->(e:Episode)
  RETURN collect([m.id, e.id]) AS next
}
CALL () {
  MATCH (en:Entity {namespace: $namespace})
  WHERE en.merged_into IS NULL
  RETURN collect([en.canonical, en.id, en.type, en.canonical, en.mention_count, false, en.name, en.aliases]) AS names
}
CALL () {
  MATCH (a:Alias {namespace: $namespace})-[:ALIAS_OF]->(en:Entity)
  RETURN collect([a.key, en.id, en.type, en.canonical, en.mention_count, true]) AS aliases
}
RETURN version, entities, concepts, edges, episodes, facts, mentions, about, fact_concepts, support, next, names,
       aliases
