// Graph channel seeds, in one round trip: the entities the query names ($named, with weight 1.0)
// and the entities the top keyword and vector hits ($hits) mention or are about, with how many
// memories mention each (for the idf). An entity both named and behind a hit comes back twice.
CALL () {
  UNWIND $named AS id
  MATCH (e:Entity {id: id})
  RETURN e, true AS named
  UNION
  UNWIND $hits AS id
  MATCH (:Episode {id: id})-[:MENTIONS]->(e:Entity)
  RETURN e, false AS named
  UNION
  UNWIND $hits AS id
  MATCH (:Fact {id: id})-[:ABOUT]->(e:Entity)
  RETURN e, false AS named
}
WITH e, named
WHERE e.namespace = $namespace AND e.merged_into IS NULL
RETURN e.id AS id, e.mention_count AS mentions, named
