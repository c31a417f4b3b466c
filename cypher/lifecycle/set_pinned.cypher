// Pin or unpin a memory: pinned memories never decay and are never expired by a sweep.
CALL () {
  MATCH (m:Episode {id: $id})
  WHERE m.namespace = $namespace
  RETURN m
  UNION
  MATCH (m:Fact {id: $id})
  WHERE m.namespace = $namespace
  RETURN m
}
SET m.pinned = $pinned
RETURN m.id AS id
