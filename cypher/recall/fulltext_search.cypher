// Keyword channel: BM25-style full-text hits in one namespace, ids and scores only, over several
// indexes (episodes' stems or content, fact statements) in one round trip, each $searches entry
// an index and the query for it; each index gives its best $limit.
// A query requires the namespace's token (store/search.py), so the index itself keeps to the
// namespace and stops at $limit; the namespace test after it only makes that explicit. One ORDER
// BY, over both indexes' hits: ArcadeDB builds a map of the row for every comparison, and sorting
// each index's hits first made the statement ~8 % slower at median (docs/benchmarks.md).
// The rows come back as one list, in order, in one record (Transaction.run_listed).
UNWIND $searches AS search
CALL (search) {
  CALL db.index.fulltext.queryNodes(search.index, search.query, {limit: $limit}) YIELD node, score
  WHERE node.namespace = $namespace
  RETURN node, score
}
WITH node.id AS id, labels(node)[0] AS label, score
ORDER BY score DESC
LIMIT $limit
RETURN collect({id: id, label: label, score: score}) AS rows
