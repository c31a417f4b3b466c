// Concepts of a namespace, those most episodes are about first; with $search, only those whose
// name contains it (names are lowercase lemmas). Each with how many memories (episodes and facts,
// not forgotten) link it.
MATCH (c:Concept {namespace: $namespace})
WHERE $search IS NULL OR c.name CONTAINS $search
RETURN c {.id, .namespace, .name, .episode_count,
          memory_count: size([(c)<-[:MENTIONS_CONCEPT]-(m) WHERE m.forgotten_at IS NULL | m])} AS concept
ORDER BY c.episode_count DESC, c.name
SKIP $skip
LIMIT $limit
