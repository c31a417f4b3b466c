// Near-duplicates (lifecycle/remember.py): a new fact that adds to a close current one of its
// namespace points at it. Both ends are matched in the namespace, so no link can cross one.
MATCH (f:Fact {id: $new})
WHERE f.namespace = $namespace
MATCH (o:Fact {id: $old})
WHERE o.namespace = $namespace
CREATE (f)-[:EXTENDS {at: $at}]->(o)
