// Entities of a namespace by canonical key (any type; the caller checks compatibility).
UNWIND $keys AS key
MATCH (en:Entity {namespace: $namespace, canonical: key})
RETURN en.canonical AS canonical, en.id AS id, en.type AS type
ORDER BY en.mention_count DESC
