// Vector channel: nearest neighbours by cosine over several indexes (episode and fact embeddings)
// in one round trip. The indexes are global, so each is asked for $k neighbours (more than
// $limit) and the namespace is filtered afterwards. The best $limit of both indexes' hits are among
// each index's best $limit, so one ORDER BY over all of them gives the same rows as sorting each
// index's first, in ~7 % less time (docs/benchmarks.md).
// The rows come back as one list, in order, in one record (Transaction.run_listed).
UNWIND $indexes AS index
CALL (index) {
  CALL db.index.vector.queryNodes(index, $k, $embedding) YIELD node, score
  WHERE node.namespace = $namespace AND score >= $min_score
  RETURN node, score
}
WITH node.id AS id, labels(node)[0] AS label, score
ORDER BY score DESC
LIMIT $limit
RETURN collect({id: id, label: label, score: score}) AS rows
