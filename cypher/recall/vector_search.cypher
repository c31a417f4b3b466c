// Vector channel over the indexes, for a namespace too large to score exactly (store/vectors.py):
// each index in $searches is asked for its $k nearest neighbours in one round trip. The indexes
// span every namespace, so the namespace is filtered afterwards, and each answer says how many
// neighbours the index gave and the lowest score among them: the caller asks again with a larger
// k when too few were the namespace's and more could be.
// One record, one list (Transaction.run_listed).
UNWIND $searches AS search
CALL (search) {
  CALL db.index.vector.queryNodes(search.index, search.k, $embedding) YIELD node, score
  WITH
    count(node) AS returned,
    min(score) AS lowest,
    collect(
      CASE
        WHEN node.namespace = $namespace AND score >= $min_score
          THEN {id: node.id, label: labels(node)[0], score: score}
      END
    ) AS rows
  RETURN returned, lowest, rows
}
RETURN collect({index: search.index, returned: returned, lowest: lowest, rows: rows}) AS rows
