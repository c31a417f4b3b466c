// The namespace's memories whose vectors were written after number $since of its vector stream
// (store/vector_cache.py), every one when $since is -1 (memories written before vectors were
// numbered count as 0), with their vectors: an episode's embedding and context vector, a fact's
// embedding; null where there is none. One record, one list (Transaction.run_listed).
CALL () {
  MATCH (e:Episode {namespace: $namespace})
  WHERE coalesce(e.vector_seq, 0) > $since
  RETURN {id: e.id, label: 'Episode', embedding: e.embedding, context: e.context_embedding} AS memory
  UNION ALL
  MATCH (f:Fact {namespace: $namespace})
  WHERE coalesce(f.vector_seq, 0) > $since
  RETURN {id: f.id, label: 'Fact', embedding: f.embedding, context: null} AS memory
}
RETURN collect(memory) AS rows
