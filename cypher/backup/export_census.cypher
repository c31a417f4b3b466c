// Export: how many nodes of each label every namespace holds, in one pass (API keys and
// migrations belong to no namespace).
MATCH (n)
WHERE n.namespace IS NOT NULL
RETURN n.namespace AS namespace, labels(n)[0] AS label, count(*) AS count
