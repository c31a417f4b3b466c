// Undoing a failed import: the namespace's own record.
MATCH (n:Namespace {name: $namespace})
DELETE n
