// Inside the commit: write-lock the batch's episodes first, then check that our lease still holds
// on each, so that two workers can never both commit one episode. first_time: never consolidated
// before, so its co-occurrences are not counted yet.
UNWIND $ids AS id
MATCH (e:Episode {id: id})
SET e.lease_checked_at = $now
WITH e
RETURN e.id AS id, e.state = 'leased' AND e.lease_owner = $worker AS owned, e.consolidated_at IS NULL AS first_time
