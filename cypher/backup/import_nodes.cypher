// Import: new nodes of one label; each row holds every property of one. NODE_LABEL: see
// export_nodes.cypher.
UNWIND $rows AS props
CREATE (n:NODE_LABEL)
SET n = props
