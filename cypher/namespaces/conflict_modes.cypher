// A namespace's conflict mode for each kind of statement (docs/memory-management.md, Conflict
// modes); null where it set none, and for a namespace without a record yet.
OPTIONAL MATCH (n:Namespace {name: $namespace})
RETURN n.conflict_attribute AS attribute, n.conflict_relation AS relation
