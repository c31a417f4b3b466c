// Concepts by id within a namespace, each with how many memories (episodes and facts, not
// forgotten) link it.
UNWIND $ids AS id
MATCH (c:Concept {id: id})
WHERE c.namespace = $namespace
RETURN c {.id, .namespace, .name, .episode_count,
          memory_count: size([(c)<-[:MENTIONS_CONCEPT]-(m) WHERE m.forgotten_at IS NULL | m])} AS concept
