// Entities whose name resembles each probe, for alias and spelling checks by the caller.
// A probe's query requires the namespace's token (store/search.py): the index answers with the
// namespace's matches only, however many entities of other namespaces share the words.
UNWIND $queries AS probe
CALL (probe) {
  CALL db.index.fulltext.queryNodes($index, probe.query) YIELD node, score
  WHERE node.namespace = $namespace AND node.merged_into IS NULL
  RETURN node
  ORDER BY score DESC, node.id
  LIMIT $limit
}
RETURN probe.key AS key, node.id AS id, node.canonical AS canonical, node.type AS type, node.aliases AS aliases
