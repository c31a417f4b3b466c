// Entities whose name embeds close to each probe's, of the same type, above $min_score.
UNWIND $probes AS probe
CALL (probe) {
  CALL db.index.vector.queryNodes($index, $k, probe.embedding) YIELD node, score
  WHERE node.namespace = $namespace AND node.merged_into IS NULL AND node.type = probe.type
    AND score >= $min_score
  RETURN node, score
  ORDER BY score DESC
  LIMIT 1
}
RETURN probe.key AS key, node.id AS id, node.type AS type, node.canonical AS canonical, score
