// Every relationship that starts at a namespace's nodes, with its ends' ids and its properties.
MATCH (a)-[r]->(b)
WHERE a.namespace = $namespace
RETURN type(r) AS type, a.id AS source, b.id AS target, properties(r) AS props
