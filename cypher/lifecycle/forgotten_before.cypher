// Memories forgotten before the cutoff, past recovery: the sweeper erases them. Episodes come
// first, as erasing one may take facts along.
CALL () {
  MATCH (m:Episode)
  WHERE m.forgotten_at < $cutoff AND ($namespace IS NULL OR m.namespace = $namespace)
  RETURN m, 0 AS rank
  UNION
  MATCH (m:Fact)
  WHERE m.forgotten_at < $cutoff AND ($namespace IS NULL OR m.namespace = $namespace)
  RETURN m, 1 AS rank
}
RETURN m.namespace AS namespace, m.id AS id
ORDER BY rank, id
LIMIT $limit
