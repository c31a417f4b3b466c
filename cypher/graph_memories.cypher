// Graph channel, scoring: a memory's graph score is the sum of the weights (activation, damped for
// hubs) of the entities it mentions or is about. Ids and scores only; authorization comes later.
// The rows come back as one list, in order, in one record (Transaction.run_listed).
UNWIND $entities AS entity
MATCH (e:Entity {id: entity.id})
WHERE e.namespace = $namespace
CALL (e) {
  MATCH (e)<-[:MENTIONS]-(m:Episode) RETURN m
  UNION
  MATCH (e)<-[:ABOUT]-(m:Fact) RETURN m
}
WITH m, sum(entity.weight) AS score
WITH m.id AS id, labels(m)[0] AS label, score
ORDER BY score DESC, id
LIMIT $limit
RETURN collect({id: id, label: label, score: score}) AS rows
