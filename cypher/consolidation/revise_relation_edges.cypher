// The typed edges of facts whose place in time was worked out again.
UNWIND $edges AS x
MATCH (:Entity {id: x.subject})-[r]->(:Entity {id: x.object})
WHERE r.fact = x.fact
SET r.valid_from = x.valid_from, r.valid_to = x.valid_to, r.confidence = x.confidence, r.strength = x.strength,
    r.expired_at = CASE WHEN x.expired THEN coalesce(r.expired_at, $now) ELSE null END
