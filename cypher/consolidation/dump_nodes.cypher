// Every node of a namespace with its properties, for a canonical dump of the derived graph.
MATCH (n)
WHERE n.namespace = $namespace
RETURN labels(n)[0] AS label, properties(n) AS props
