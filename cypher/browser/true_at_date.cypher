// Neo4j Browser: what held in the world at a date (valid time), as Hippograph knows it now.
// :param {namespace: 'demo', date: datetime('2023-01-01T00:00:00Z')}
MATCH (s:Entity {namespace: $namespace})-[r]->(o:Entity)
WHERE type(r) <> 'CO_OCCURS'
  AND r.valid_from <= $date AND (r.valid_to IS NULL OR r.valid_to > $date)
  AND r.expired_at IS NULL
RETURN s.name AS subject, type(r) AS relation, o.name AS object, r.valid_from AS since, r.valid_to AS until
ORDER BY subject, relation
