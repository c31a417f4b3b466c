// A user alias for an entity in its namespace: resolution finds the entity by it from now on. The
// entity's write lock is taken before its aliases are read (_LOCK_, set and removed:
// docs/architecture.md, Concurrency).
MATCH (en:Entity {id: $entity_id, namespace: $namespace})
WHERE en.merged_into IS NULL
SET en._LOCK_ = true
MERGE (a:Alias {namespace: $namespace, key: $key})
  ON CREATE SET a.id = $alias_id, a.name = $alias, a.created_at = $at
WITH en, a
OPTIONAL MATCH (a)-[old:ALIAS_OF]->(other:Entity)
WHERE other.id <> en.id
DELETE old
WITH DISTINCT en, a
MERGE (a)-[:ALIAS_OF]->(en)
SET en.aliases = CASE WHEN $alias IN en.aliases THEN en.aliases ELSE coalesce(en.aliases, []) + $alias END
REMOVE en._LOCK_
RETURN en.id AS id
