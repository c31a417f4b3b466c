// Count a recall of these memories: it slows their decay (DESIGN §6, access boost).
UNWIND $ids AS id
CALL (id) {
  MATCH (m:Episode {id: id}) WHERE m.namespace = $namespace RETURN m
  UNION
  MATCH (m:Fact {id: id}) WHERE m.namespace = $namespace RETURN m
}
SET m.access_count = coalesce(m.access_count, 0) + 1, m.last_accessed_at = $at
