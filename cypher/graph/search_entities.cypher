// Entities whose name matches a full-text query, best first.
CALL db.index.fulltext.queryNodes($index, $query) YIELD node, score
WHERE node.namespace = $namespace AND node.merged_into IS NULL AND ($type IS NULL OR node.type = $type)
RETURN node {.id, .namespace, .name, .canonical, .type, .aliases, .mention_count, .first_seen_at, .last_seen_at, .merged_into} AS entity
ORDER BY score DESC, node.mention_count DESC
SKIP $skip
LIMIT $limit
