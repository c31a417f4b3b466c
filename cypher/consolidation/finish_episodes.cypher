// Episodes done, each with its knowledge category (docs/memory-management.md, Knowledge categories):
// a category only ever moves from general (or none) to a specific one, never back. Its hints
// (extraction/hints.py) are what the hint channel searches.
UNWIND $episodes AS row
MATCH (e:Episode {id: row.id})
SET e.state = 'consolidated', e.consolidated_at = $now, e.lease_owner = null, e.lease_expires_at = null,
    e.retry_at = null, e.last_error = null, e.hints = row.hints,
    e.category = CASE WHEN e.category IS NULL OR e.category = $general THEN row.category ELSE e.category END
