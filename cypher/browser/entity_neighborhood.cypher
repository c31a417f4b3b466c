// Neo4j Browser: an entity and everything within two hops that holds now, as currently known.
// Set the parameters first, e.g. :param {namespace: 'demo', name: 'Caroline'}
MATCH (start:Entity {namespace: $namespace, name: $name})
MATCH path = (start)-[rels*1..2]-(:Entity)
WHERE all(r IN rels WHERE r.valid_to IS NULL AND r.expired_at IS NULL)
RETURN path
LIMIT 100
