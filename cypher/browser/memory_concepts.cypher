// Neo4j Browser: what a memory is about: the concepts and entities an episode links; for a fact,
// those of the episodes that support it.
// Set the parameters first, e.g. :param {namespace: 'demo', id: '01J...'}
MATCH (m {id: $id})
WHERE m.namespace = $namespace
OPTIONAL MATCH (m)-[:SUPPORTED_BY]->(supporting:Episode)
WITH coalesce(supporting, m) AS episode
MATCH path = (episode)-[:MENTIONS_CONCEPT|MENTIONS]->()
RETURN path
LIMIT 100
