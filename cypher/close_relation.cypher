// The world changed: the edge mirroring $fact stopped holding at $valid_to (valid time).
MATCH (:Entity {id: $subject})-[r]->(:Entity {id: $object})
WHERE r.fact = $fact AND r.valid_to IS NULL
SET r.valid_to = $valid_to
