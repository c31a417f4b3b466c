// The memories that meet at a concept, newest first, as recall sees them: never forgotten; an
// episode that had happened at $as_of and was captured by $known_at; a fact that held at $as_of
// and was believed at $known_at, current unless a time is asked for (then superseded ones that
// held count too), never quarantined.
MATCH (c:Concept {id: $id})<-[:MENTIONS_CONCEPT]-(m)
WHERE c.namespace = $namespace AND m.namespace = $namespace AND m.forgotten_at IS NULL
  AND ((m:Episode
        AND ($as_of IS NULL OR m.occurred_at <= $as_of)
        AND ($known_at IS NULL OR m.captured_at <= $known_at))
    OR (m:Fact
        AND (m.status = 'active' OR (m.status = 'superseded' AND ($as_of IS NOT NULL OR $known_at IS NOT NULL)))
        AND ($as_of IS NULL OR ((m.valid_from IS NULL OR m.valid_from <= $as_of)
                                AND (m.valid_to IS NULL OR m.valid_to > $as_of)))
        AND ($known_at IS NULL OR (m.recorded_at <= $known_at
                                   AND (m.expired_at IS NULL OR m.expired_at > $known_at)))))
RETURN m.id AS id
ORDER BY coalesce(m.occurred_at, m.valid_from, m.recorded_at) DESC, m.id DESC
SKIP $skip
LIMIT $limit
