// Neo4j Browser: the memories that meet at a concept: the episodes about it (not forgotten) and
// the facts they support. The key is the concept's lowercase lemmas ("pottery class").
// Set the parameters first, e.g. :param {namespace: 'demo', key: 'pottery class'}
MATCH path = (:Concept {namespace: $namespace, key: $key})<-[:MENTIONS_CONCEPT]-(e:Episode)
WHERE e.forgotten_at IS NULL
OPTIONAL MATCH support = (e)<-[:SUPPORTED_BY]-(:Fact)
RETURN path, support
LIMIT 100
