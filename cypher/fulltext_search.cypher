// Keyword channel: BM25-style full-text hits in one namespace, ids and scores only, over several
// indexes (episode content, fact statements) in one round trip; each index gives its best $limit.
// $query requires the namespace's token (store/search.py), so the index itself keeps to the
// namespace and stops at $limit; the namespace test after it only makes that explicit.
UNWIND $indexes AS index
CALL (index) {
  CALL db.index.fulltext.queryNodes(index, $query, {limit: $limit}) YIELD node, score
  WHERE node.namespace = $namespace
  RETURN node, score
  ORDER BY score DESC
  LIMIT $limit
}
RETURN node.id AS id, labels(node)[0] AS label, score
ORDER BY score DESC
LIMIT $limit
