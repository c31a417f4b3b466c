// Export: a namespace's own record (its episode count), which carries its name, not a namespace.
MATCH (n:Namespace {name: $namespace})
RETURN properties(n) AS properties
