// Undoing a failed import: up to $limit nodes of one label in a namespace the import created, with
// their relationships (NODE_LABEL: see export_nodes.cypher). Run until it deletes none.
MATCH (n:NODE_LABEL)
WHERE n.namespace = $namespace
WITH n
LIMIT $limit
DETACH DELETE n
RETURN count(*) AS deleted
