// Forget ($at: when) or recover ($at: null) memories; forgotten ones leave listings and recall.
UNWIND $ids AS id
CALL (id) {
  MATCH (m:Episode {id: id})
  WHERE m.namespace = $namespace
  RETURN m
  UNION
  MATCH (m:Fact {id: id})
  WHERE m.namespace = $namespace
  RETURN m
}
SET m.forgotten_at = $at
REMOVE m.forgotten_with
RETURN m.id AS id
