// Episodes stored while the embedder was failing, oldest first.
MATCH (e:Episode)
WHERE e.embedding_pending = true
RETURN e.id AS id, e.content AS content
ORDER BY e.id
LIMIT $limit
