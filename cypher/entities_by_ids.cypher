MATCH (en:Entity)
WHERE en.id IN $ids AND en.namespace = $namespace
RETURN en {.id, .namespace, .name, .canonical, .type, .aliases, .mention_count, .first_seen_at, .last_seen_at} AS entity
