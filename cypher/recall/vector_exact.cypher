// Vector channels, exactly (store/vectors.py): the namespace's embedded episodes (when $episodes),
// facts (when $facts) and episodes' context vectors (when $contexts) scored by cosine against the
// query, without the indexes (which span every namespace), each kind's $limit best apart. One
// pass: an episode is read once for both of its vectors, so the vector and context channels of a
// recall cost one read of the namespace, not two. Reads the namespace's memories of those labels
// only, through the namespace indexes; a label not asked for is not read at all (its branch starts
// from no row).
// The similarity is the server's own (store/dialect.py says how it relates to an index score).
CALL () {
  WITH 1 AS one
  WHERE $episodes OR $contexts
  MATCH (e:Episode {namespace: $namespace})
  RETURN
    e.id AS id,
    CASE
      WHEN $episodes AND e.embedding IS NOT NULL THEN vector.similarity.cosine(e.embedding, $embedding)
    END AS episode,
    CASE
      WHEN $contexts AND e.context_embedding IS NOT NULL
        THEN vector.similarity.cosine(e.context_embedding, $embedding)
    END AS context,
    null AS fact
  UNION ALL
  WITH 1 AS one
  WHERE $facts
  MATCH (f:Fact {namespace: $namespace})
  WHERE f.embedding IS NOT NULL
  RETURN f.id AS id, null AS episode, null AS context, vector.similarity.cosine(f.embedding, $embedding) AS fact
}
WITH id, episode, context, fact
WHERE episode >= $min_similarity OR context >= $min_similarity OR fact >= $min_similarity
WITH collect({id: id, episode: episode, context: context, fact: fact}) AS scored
CALL (scored) {
  UNWIND scored AS s
  WITH s
  WHERE s.episode >= $min_similarity
  ORDER BY s.episode DESC
  LIMIT $limit
  RETURN collect({id: s.id, similarity: s.episode}) AS episodes
}
CALL (scored) {
  UNWIND scored AS s
  WITH s
  WHERE s.fact >= $min_similarity
  ORDER BY s.fact DESC
  LIMIT $limit
  RETURN collect({id: s.id, similarity: s.fact}) AS facts
}
CALL (scored) {
  UNWIND scored AS s
  WITH s
  WHERE s.context >= $min_similarity
  ORDER BY s.context DESC
  LIMIT $limit
  RETURN collect({id: s.id, similarity: s.context}) AS contexts
}
RETURN episodes, facts, contexts
