// Entities of a namespace by canonical key or user alias (any type; the caller checks
// compatibility); an alias hit is marked so that resolution records how it matched.
UNWIND $keys AS key
CALL (key) {
  MATCH (en:Entity {namespace: $namespace, canonical: key})
  WHERE en.merged_into IS NULL
  RETURN en, false AS by_alias
  UNION
  MATCH (:Alias {namespace: $namespace, key: key})-[:ALIAS_OF]->(en:Entity)
  RETURN en, true AS by_alias
}
RETURN key AS key, en.id AS id, en.type AS type, en.canonical AS canonical, by_alias
ORDER BY by_alias, en.mention_count DESC
