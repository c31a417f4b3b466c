// A worker's heartbeat: its leases last another lease period from now.
MATCH (e:Episode)
WHERE e.state = 'leased' AND e.lease_owner = $worker
SET e.lease_expires_at = $expires
RETURN count(e) AS renewed
