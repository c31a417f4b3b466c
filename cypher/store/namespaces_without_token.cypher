// Namespaces with episodes or facts stored before full-text search was scoped by namespace
// (store/search.py): they get their token at start-up. Empty once every memory has one.
MATCH (m:Episode)
WHERE m.namespace_token IS NULL
RETURN DISTINCT m.namespace AS namespace
UNION
MATCH (m:Fact)
WHERE m.namespace_token IS NULL
RETURN DISTINCT m.namespace AS namespace
