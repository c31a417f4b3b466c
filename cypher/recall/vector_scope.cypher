// What the vector channel weighs before choosing how to search (store/vectors.py): how many
// episodes the namespace holds (kept by capture and erase on its Namespace node), and how many
// episodes and facts the store holds (counts by label, which both servers answer from their own
// counts); and the namespace's vector stream, epoch and number, by which a process's copy of its
// vectors knows whether it is current (store/vector_cache.py). With them, what graph_version.cypher
// reads, so that a recall that runs the vector channel reads its graph's version in this row.
OPTIONAL MATCH (n:Namespace {name: $namespace})
CALL () {
  MATCH (e:Episode)
  RETURN count(e) AS store_episodes
}
CALL () {
  MATCH (f:Fact)
  RETURN count(f) AS store_facts
}
RETURN coalesce(n.episodes, 0) AS episodes, store_episodes, store_facts, n.vector_epoch AS vector_epoch,
       coalesce(n.vector_seq, 0) AS vector_seq, n IS NOT NULL AS recorded, n.graph_version AS graph_version
