// Vector channel, exactly (store/vectors.py): the namespace's embedded episodes (when $episodes),
// facts (when $facts) and episodes' context vectors (when $contexts) scored by cosine against the
// query, without the indexes (which span every namespace). Reads the namespace's memories of
// those labels only, through the namespace indexes; a kind not asked for is not read at all (its
// branch starts from no row).
// The similarity is the server's own (store/dialect.py says how it relates to an index score).
// One record, one list (Transaction.run_listed).
CALL () {
  WITH 1 AS one
  WHERE $episodes
  MATCH (e:Episode {namespace: $namespace})
  WHERE e.embedding IS NOT NULL
  RETURN e AS node, e.embedding AS v
  UNION ALL
  WITH 1 AS one
  WHERE $facts
  MATCH (f:Fact {namespace: $namespace})
  WHERE f.embedding IS NOT NULL
  RETURN f AS node, f.embedding AS v
  UNION ALL
  WITH 1 AS one
  WHERE $contexts
  MATCH (e:Episode {namespace: $namespace})
  WHERE e.context_embedding IS NOT NULL
  RETURN e AS node, e.context_embedding AS v
}
WITH node, vector.similarity.cosine(v, $embedding) AS similarity
WHERE similarity >= $min_similarity
WITH node.id AS id, labels(node)[0] AS label, similarity
ORDER BY similarity DESC
LIMIT $limit
RETURN collect({id: id, label: label, similarity: similarity}) AS rows
