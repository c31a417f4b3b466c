// Import: whether a namespace already holds a node of one label (NODE_LABEL: see export_nodes.cypher).
MATCH (n:NODE_LABEL)
WHERE n.namespace = $namespace
RETURN n.id AS id
LIMIT 1
