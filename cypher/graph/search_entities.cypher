// Entities whose name matches a full-text query, best first; ties by id, so that pages do not
// overlap. The query requires the namespace's token (store/search.py): the index answers with the
// namespace's matches only.
CALL db.index.fulltext.queryNodes($index, $query) YIELD node, score
WHERE node.namespace = $namespace AND node.merged_into IS NULL AND ($type IS NULL OR node.type = $type)
RETURN node {.id, .namespace, .name, .canonical, .type, .aliases, .mention_count, .first_seen_at, .last_seen_at, .merged_into} AS entity
ORDER BY score DESC, node.mention_count DESC, node.id
SKIP $skip
LIMIT $limit
