// Whether the store holds a vector on nodes of one label (NODE_LABEL: Episode, Fact or Entity), in
// any namespace: one is enough.
MATCH (n:NODE_LABEL)
WHERE n.embedding IS NOT NULL
RETURN n.id AS id
LIMIT 1
