// How many nodes of each label a namespace holds.
MATCH (n)
WHERE n.namespace = $namespace
RETURN labels(n)[0] AS label, count(*) AS count
