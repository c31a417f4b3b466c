// A shadow-mode episode whose proposals are recorded: parked (state shadowed), so that no worker
// leases it again until shadow mode is turned off. Checked under the lock: if our lease is gone,
// or shadow mode was turned off meanwhile (its episodes requeued), it goes back to raw instead.
MATCH (e:Episode {id: $id})
SET e.lease_checked_at = $now
WITH e
OPTIONAL MATCH (n:Namespace {name: e.namespace})
WITH e, e.state = 'leased' AND e.lease_owner = $worker AS owned, coalesce(n.shadow, false) AS shadow
SET e.state = CASE WHEN owned AND shadow THEN 'shadowed' WHEN owned THEN 'raw' ELSE e.state END,
    e.lease_owner = CASE WHEN owned THEN null ELSE e.lease_owner END,
    e.lease_expires_at = CASE WHEN owned THEN null ELSE e.lease_expires_at END,
    e.attempts = CASE WHEN owned AND NOT shadow THEN 0 ELSE e.attempts END
RETURN owned AND shadow AS parked
