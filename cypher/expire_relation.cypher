// We learned the edge mirroring $fact was wrong: close its transaction time, keep it for history.
MATCH (:Entity {id: $subject})-[r]->(:Entity {id: $object})
WHERE r.fact = $fact AND r.expired_at IS NULL
SET r.expired_at = $now
