// Vector channel: nearest neighbours by cosine. The index is global, so it is asked for $k
// neighbours (more than $limit) and the namespace is filtered afterwards.
CALL db.index.vector.queryNodes($index, $k, $embedding) YIELD node, score
WHERE node.namespace = $namespace AND score >= $min_score
RETURN node.id AS id, labels(node)[0] AS label, score
ORDER BY score DESC
LIMIT $limit
