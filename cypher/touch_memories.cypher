// Count a recall of these memories: it slows their decay (DESIGN §6, access boost).
CALL () {
  MATCH (m:Episode) WHERE m.id IN $ids AND m.namespace = $namespace RETURN m
  UNION
  MATCH (m:Fact) WHERE m.id IN $ids AND m.namespace = $namespace RETURN m
}
SET m.access_count = coalesce(m.access_count, 0) + 1, m.last_accessed_at = $at
