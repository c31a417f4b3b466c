// Keyword channel: BM25-style full-text hits in one namespace, ids and scores only, over several
// indexes (episode content, fact statements) in one round trip; each index gives its best $limit.
// $query requires the namespace's token (store/search.py), so the index itself keeps to the
// namespace and stops at $limit; the namespace test after it only makes that explicit. One ORDER
// BY, over both indexes' hits: ArcadeDB builds a map of the row for every comparison, and sorting
// each index's hits first made the statement ~8 % slower at median (docs/benchmarks.md).
UNWIND $indexes AS index
CALL (index) {
  CALL db.index.fulltext.queryNodes(index, $query, {limit: $limit}) YIELD node, score
  WHERE node.namespace = $namespace
  RETURN node, score
}
RETURN node.id AS id, labels(node)[0] AS label, score
ORDER BY score DESC
LIMIT $limit
