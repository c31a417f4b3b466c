// The concepts memories (episodes or facts, by id) are about, within a namespace, each with how
// many memories (not forgotten) link it.
UNWIND $ids AS id
CALL (id) {
  MATCH (:Episode {id: id})-[:MENTIONS_CONCEPT]->(c:Concept)
  RETURN c
  UNION
  MATCH (:Fact {id: id})-[:MENTIONS_CONCEPT]->(c:Concept)
  RETURN c
}
WITH id, c
WHERE c.namespace = $namespace
RETURN id AS memory, c {.id, .namespace, .name, .episode_count,
          memory_count: size([(c)<-[:MENTIONS_CONCEPT]-(m) WHERE m.forgotten_at IS NULL | m])} AS concept
ORDER BY memory, concept.episode_count, concept.name
