// Entities whose name embeds close to each probe's, of the same type, above $min_score, in the
// namespace (resolution/resolve.py). The index spans every namespace: each probe's answer also
// says how many neighbours the index gave and the lowest score among them, so that the caller
// asks again with a larger $k while none was the namespace's and a farther one could still pass.
// One record, one list (Transaction.run_listed).
UNWIND $probes AS probe
CALL (probe) {
  CALL db.index.vector.queryNodes($index, $k, probe.embedding) YIELD node, score
  WITH
    count(node) AS returned,
    min(score) AS lowest,
    collect(
      CASE
        WHEN node.namespace = $namespace AND node.merged_into IS NULL AND node.type = probe.type
          AND score >= $min_score
          THEN {id: node.id, type: node.type, canonical: node.canonical, score: score}
      END
    ) AS rows
  RETURN returned, lowest, rows
}
RETURN collect({at: probe.at, returned: returned, lowest: lowest, rows: rows}) AS rows
