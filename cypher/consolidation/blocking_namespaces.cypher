// Which of these namespaces block destructive proposals (supersede, closing a relation, merging
// entities), read in the commit's own transaction.
UNWIND $namespaces AS name
MATCH (n:Namespace {name: name})
WHERE n.block_destructive = true
RETURN n.name AS name
