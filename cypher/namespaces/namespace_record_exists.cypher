// Whether a namespace has its own record (its episode count): import, and the API telling an unknown namespace.
MATCH (n:Namespace {name: $namespace})
RETURN n.name AS name
