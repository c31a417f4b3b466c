// When keys were last used; written at most once a minute per key, not on every request.
UNWIND $rows AS row
MATCH (k:ApiKey {id: row.id})
SET k.last_used_at = row.at
