// Which of these namespaces consolidate in shadow mode.
UNWIND $namespaces AS name
MATCH (n:Namespace {name: name})
WHERE n.shadow = true
RETURN n.name AS name
