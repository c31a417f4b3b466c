// Namespaces with entities stored before entity search was scoped by namespace (store/search.py):
// they get their token at start-up. Empty once every entity has one.
MATCH (n:Entity)
WHERE n.namespace_token IS NULL
RETURN DISTINCT n.namespace AS namespace
