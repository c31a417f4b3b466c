// The audit trail of one node, oldest first (History.target is indexed).
MATCH (h:History {target: $target})
WHERE h.namespace = $namespace
RETURN h {.id, .target, .event, .actor, .reason, .old_content, .new_content, .at, .metadata} AS event
ORDER BY h.at, h.id
