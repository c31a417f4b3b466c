// Send consolidated or dead-lettered episodes round again (after an extractor upgrade, or to
// retry dead letters); consolidation is idempotent, so nothing is derived twice.
MATCH (e:Episode)
WHERE e.namespace = $namespace AND e.state IN $states
SET e.state = 'raw', e.attempts = 0, e.retry_at = null, e.last_error = null
RETURN count(e) AS requeued
