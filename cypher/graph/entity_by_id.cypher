MATCH (en:Entity {id: $id, namespace: $namespace})
RETURN en {.id, .namespace, .name, .canonical, .type, .aliases, .mention_count, .first_seen_at, .last_seen_at, .merged_into} AS entity
