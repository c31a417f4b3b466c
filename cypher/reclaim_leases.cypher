// The episodes leased by workers that died go back to raw now, to be leased again at once.
MATCH (e:Episode)
WHERE e.state = 'leased' AND e.lease_owner IN $owners
SET e.state = 'raw', e.lease_owner = null, e.lease_expires_at = null, e.retry_at = null
RETURN count(e) AS reclaimed
