// Lease raw episodes in capture order (and those whose lease ran out: their worker died).
MATCH (e:Episode)
WHERE ($namespace IS NULL OR e.namespace = $namespace)
  AND e.forgotten_at IS NULL
  AND ((e.state = 'raw' AND (e.retry_at IS NULL OR e.retry_at <= $now))
       OR (e.state = 'leased' AND e.lease_expires_at < $now))
WITH e
ORDER BY e.captured_at, e.id
LIMIT $limit
SET e.state = 'leased', e.lease_owner = $worker, e.lease_expires_at = $expires,
    e.attempts = coalesce(e.attempts, 0) + 1
RETURN e.id AS id, e.namespace AS namespace, e.content AS content, e.agent AS agent, e.role AS role,
       e.occurred_at AS occurred_at, e.attempts AS attempts
