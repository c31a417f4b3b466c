// Entities nothing mentions and no fact is about any more are erased, with their CO_OCCURS and
// typed edges and the aliases that named them. Merge tombstones stay: they record a decision.
UNWIND $entities AS entity
MATCH (en:Entity {id: entity})
WHERE en.namespace = $namespace AND en.merged_into IS NULL
  AND NOT EXISTS { (:Episode)-[:MENTIONS]->(en) }
  AND NOT EXISTS { (:Fact)-[:ABOUT]->(en) }
OPTIONAL MATCH (a:Alias)-[:ALIAS_OF]->(en)
DETACH DELETE a, en
RETURN DISTINCT entity AS id
