// Vector channel for a small namespace (recall/vector.py): every embedded episode and fact of the
// namespace scored by cosine against the query, exactly, without the indexes (which span every
// namespace). Reads the namespace's memories only, through the namespace indexes.
// The similarity is the server's own (store/dialect.py says how it relates to an index score).
// One record, one list (Transaction.run_listed).
CALL () {
  MATCH (e:Episode {namespace: $namespace})
  WHERE e.embedding IS NOT NULL
  RETURN e AS node
  UNION ALL
  MATCH (f:Fact {namespace: $namespace})
  WHERE f.embedding IS NOT NULL
  RETURN f AS node
}
WITH node, vector.similarity.cosine(node.embedding, $embedding) AS similarity
WHERE similarity >= $min_similarity
WITH node.id AS id, labels(node)[0] AS label, similarity
ORDER BY similarity DESC
LIMIT $limit
RETURN collect({id: id, label: label, similarity: similarity}) AS rows
