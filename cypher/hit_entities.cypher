// Graph channel seeds besides the entities the query names: the entities the top keyword and
// vector hits mention or are about.
UNWIND $ids AS id
CALL (id) {
  MATCH (:Episode {id: id})-[:MENTIONS]->(e:Entity) RETURN e
  UNION
  MATCH (:Fact {id: id})-[:ABOUT]->(e:Entity) RETURN e
}
WITH DISTINCT e
WHERE e.namespace = $namespace AND e.merged_into IS NULL
RETURN e.id AS id, e.mention_count AS mentions
