// A namespace's scope and the hits of full-text searches in it, in one round trip: a recall's
// first read, whose vector channel weighs the scope while its keyword channel ranks the hits
// (recall/channels.py); $searches may be empty, for the scope alone.
// The scope (store/vectors.py): how many episodes the namespace holds (kept by capture and erase on
// its Namespace node), and how many episodes and facts the store holds (counts by label, which
// both servers answer from their own counts); the namespace's vector stream, epoch and number, by
// which a process's copy of its vectors knows whether it is current (store/vector_cache.py); and
// what graph_version.cypher reads, so that a recall reads its graph's version in this row too.
// The hits: BM25-style, ids and scores only, each $searches entry an index (episodes' stems or
// content, fact statements) and the query for it; each index gives its best $limit. A query
// requires the namespace's token (store/search.py), so the index itself keeps to the namespace and
// stops at $limit; the namespace test after it only makes that explicit. One ORDER BY, over all
// indexes' hits: ArcadeDB builds a map of the row for every comparison, and sorting each index's
// hits first made the statement ~8 % slower at median (docs/benchmarks.md).
OPTIONAL MATCH (n:Namespace {name: $namespace})
CALL () {
  MATCH (e:Episode)
  RETURN count(e) AS store_episodes
}
CALL () {
  MATCH (f:Fact)
  RETURN count(f) AS store_facts
}
CALL () {
  UNWIND $searches AS search
  CALL (search) {
    CALL db.index.fulltext.queryNodes(search.index, search.query, {limit: $limit}) YIELD node, score
    WHERE node.namespace = $namespace
    RETURN node, score
  }
  WITH node.id AS id, labels(node)[0] AS label, score
  ORDER BY score DESC
  LIMIT $limit
  RETURN collect({id: id, label: label, score: score}) AS hits
}
RETURN coalesce(n.episodes, 0) AS episodes, store_episodes, store_facts, n.vector_epoch AS vector_epoch,
       coalesce(n.vector_seq, 0) AS vector_seq, n IS NOT NULL AS recorded, n.graph_version AS graph_version, hits
