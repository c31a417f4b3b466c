// How many relationships of each type start at a namespace's nodes.
MATCH (n)-[r]->()
WHERE n.namespace = $namespace
RETURN type(r) AS type, count(r) AS count
