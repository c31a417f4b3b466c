// Summaries: keep a session's summary (one per namespace, scope and key), replacing the last.
MERGE (m:Summary {namespace: $namespace, scope: $scope, key: $key})
  ON CREATE SET m.id = $id
SET m.lines = $lines, m.word_counts = $word_counts, m.turns = $turns, m.counted_through = $counted_through,
    m.updated_at = $at
RETURN m.id AS id
