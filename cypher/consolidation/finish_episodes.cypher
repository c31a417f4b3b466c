UNWIND $ids AS id
MATCH (e:Episode {id: id})
SET e.state = 'consolidated', e.consolidated_at = $now, e.lease_owner = null, e.lease_expires_at = null,
    e.retry_at = null, e.last_error = null
