// Integrity of a namespace's derived graph (erasure must leave none of these): entities nothing
// mentions and no fact is about, extracted facts without a supporting episode, typed edges whose
// fact is gone, and CO_OCCURS edges no episode supports.
CALL () {
  MATCH (en:Entity)
  WHERE en.namespace = $namespace AND en.merged_into IS NULL
    AND NOT EXISTS { (:Episode)-[:MENTIONS]->(en) }
    AND NOT EXISTS { (:Fact)-[:ABOUT]->(en) }
  RETURN count(en) AS entities
}
CALL () {
  MATCH (f:Fact)
  WHERE f.namespace = $namespace AND f.origin = 'extracted'
    AND NOT EXISTS { (f)-[:SUPPORTED_BY]->(:Episode) }
  RETURN count(f) AS facts
}
CALL () {
  MATCH (s:Entity)-[r]->(:Entity)
  WHERE s.namespace = $namespace AND r.fact IS NOT NULL
    AND NOT EXISTS { MATCH (f:Fact {id: r.fact}) }
  RETURN count(r) AS edges
}
CALL () {
  MATCH (a:Entity)-[c:CO_OCCURS]->(b:Entity)
  WHERE a.namespace = $namespace
    AND NOT EXISTS { MATCH (x:Episode)-[:MENTIONS]->(a) WHERE EXISTS { (x)-[:MENTIONS]->(b) } }
  RETURN count(c) AS cooccurrences
}
RETURN entities, facts, edges, cooccurrences
