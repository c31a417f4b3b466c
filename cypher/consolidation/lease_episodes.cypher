// Lease raw episodes in capture order (and those whose lease ran out: their worker stopped renewing
// it). One write that checks again under the lock: the first match reads without locks, so another
// worker may have leased a candidate meanwhile; the SET of lease_checked_at write-locks each
// candidate, and `free` is judged after that on what is committed. A candidate taken by another
// worker comes back with taken = false and is left as it is.
MATCH (e:Episode)
WHERE ($namespace IS NULL OR e.namespace = $namespace)
  AND e.forgotten_at IS NULL
  AND ((e.state = 'raw' AND (e.retry_at IS NULL OR e.retry_at <= $now))
       OR (e.state = 'leased' AND e.lease_expires_at < $now))
WITH e
ORDER BY e.captured_at, e.id
LIMIT $limit
SET e.lease_checked_at = $now
WITH e,
     e.forgotten_at IS NULL
       AND ((e.state = 'raw' AND (e.retry_at IS NULL OR e.retry_at <= $now))
            OR (e.state = 'leased' AND e.lease_expires_at < $now)) AS free
SET e.state = CASE WHEN free THEN 'leased' ELSE e.state END,
    e.lease_owner = CASE WHEN free THEN $worker ELSE e.lease_owner END,
    e.lease_expires_at = CASE WHEN free THEN $expires ELSE e.lease_expires_at END,
    e.attempts = CASE WHEN free THEN coalesce(e.attempts, 0) + 1 ELSE e.attempts END
RETURN e.id AS id, free AS taken, e.namespace AS namespace, e.content AS content, e.agent AS agent,
       e.role AS role, e.occurred_at AS occurred_at, e.attempts AS attempts, e.embedding AS embedding
