// Neo4j Browser: what a memory is about: the concepts and entities an episode links; for a fact,
// the concepts its statements mention and what the episodes that support it link.
// Set the parameters first, e.g. :param {namespace: 'demo', id: '01J...'}
MATCH (m {id: $id})
WHERE m.namespace = $namespace
OPTIONAL MATCH (m)-[:SUPPORTED_BY]->(supporting:Episode)
WITH m, collect(supporting) + [m] AS sources
UNWIND sources AS source
MATCH path = (source)-[:MENTIONS_CONCEPT|MENTIONS]->()
RETURN path
LIMIT 100
