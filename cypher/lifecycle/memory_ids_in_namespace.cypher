// Every memory of a namespace not yet forgotten, ids only: the candidates of a forget by filters,
// which forget_candidates_by_id then narrows.
CALL () {
  MATCH (m:Episode)
  WHERE m.namespace = $namespace AND m.forgotten_at IS NULL
  RETURN m.id AS id
  UNION
  MATCH (m:Fact)
  WHERE m.namespace = $namespace AND m.forgotten_at IS NULL
  RETURN m.id AS id
}
RETURN id
