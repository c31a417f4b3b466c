// Neo4j Browser: the memories that meet at a concept: the episodes and facts that mention it (not
// forgotten), and the facts the episodes support. The key is the concept's lowercase lemmas
// ("pottery class").
// Set the parameters first, e.g. :param {namespace: 'demo', key: 'pottery class'}
MATCH path = (:Concept {namespace: $namespace, key: $key})<-[:MENTIONS_CONCEPT]-(m)
WHERE m.forgotten_at IS NULL
OPTIONAL MATCH support = (m:Episode)<-[:SUPPORTED_BY]-(:Fact)
RETURN path, support
LIMIT 100
