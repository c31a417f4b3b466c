// Export: every namespace the store holds anything of (API keys and migrations belong to none).
MATCH (n)
WHERE n.namespace IS NOT NULL
RETURN DISTINCT n.namespace AS namespace
ORDER BY namespace
