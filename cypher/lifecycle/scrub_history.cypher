// Erasure keeps the audit trail's shape but not its content: each event of an erased node stays
// as a tombstone (who, what, when) without old/new content, reason or metadata.
UNWIND $targets AS target
MATCH (h:History {target: target})
WHERE h.namespace = $namespace
REMOVE h.old_content, h.new_content, h.reason, h.metadata
SET h.scrubbed_at = $now
