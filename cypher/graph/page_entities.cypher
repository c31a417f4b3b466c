// Entities of a namespace, most mentioned first.
MATCH (node:Entity {namespace: $namespace})
WHERE node.merged_into IS NULL AND ($type IS NULL OR node.type = $type)
RETURN node {.id, .namespace, .name, .canonical, .type, .aliases, .mention_count, .first_seen_at, .last_seen_at, .merged_into} AS entity
ORDER BY node.mention_count DESC, node.id
SKIP $skip
LIMIT $limit
