// Keyword channel: BM25-style full-text hits in one namespace, ids and scores only.
CALL db.index.fulltext.queryNodes($index, $query) YIELD node, score
WHERE node.namespace = $namespace
RETURN node.id AS id, labels(node)[0] AS label, score
ORDER BY score DESC
LIMIT $limit
