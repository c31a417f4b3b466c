// Inside the commit: write-lock the episode first, then check that our lease still holds, so
// that two workers can never both commit one episode.
MATCH (e:Episode {id: $id})
SET e.lease_checked_at = $now
WITH e
RETURN e.state = 'leased' AND e.lease_owner = $worker AS owned
