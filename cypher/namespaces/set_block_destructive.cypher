// Turn a namespace's blocking of destructive proposals on or off (docs/memory-management.md,
// Blocking destructive proposals). The record may not exist yet: it can be set before the first
// capture. Nothing blocked before is replayed when it is turned off.
MERGE (n:Namespace {name: $namespace})
ON CREATE SET n.episodes = 0
SET n.block_destructive = $enabled
RETURN n.name AS name
