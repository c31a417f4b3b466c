// Import: whether a namespace has its own record (its episode count) already.
MATCH (n:Namespace {name: $namespace})
RETURN n.name AS name
