// A failed attempt: back to raw after a backoff, or to the dead letter after the last attempt.
MATCH (e:Episode {id: $id})
WHERE e.lease_owner = $worker
SET e.state = CASE WHEN e.attempts >= $max_attempts THEN 'failed' ELSE 'raw' END,
    e.retry_at = $retry_at, e.last_error = $error, e.lease_owner = null, e.lease_expires_at = null
RETURN e.state AS state
