// Turn a namespace's shadow mode on or off (docs/memory-management.md, Shadow mode). The record
// may not exist yet: shadow mode can be set before the first capture. Turning it off sends the
// episodes it parked round again, in the same transaction, so that they are applied for real.
MERGE (n:Namespace {name: $namespace})
ON CREATE SET n.episodes = 0
SET n.shadow = $enabled
WITH n
OPTIONAL MATCH (e:Episode)
WHERE NOT $enabled AND e.namespace = $namespace AND e.state = 'shadowed'
SET e.state = 'raw', e.attempts = 0, e.retry_at = null, e.last_error = null
RETURN count(e) AS requeued
