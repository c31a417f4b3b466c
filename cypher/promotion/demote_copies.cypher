// Quarantine promoted copies whose support was lost; each only while it is still current, so that
// two reviews at once demote it once.
UNWIND $ids AS id
MATCH (c:Fact {id: id})
WHERE c.status = 'active'
SET c.status = 'quarantined', c.demoted_at = $now
RETURN collect(c.id) AS demoted
