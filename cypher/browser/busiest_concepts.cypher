// Neo4j Browser: the concepts most memories of a namespace meet at, with how many episodes each
// (a concept linked to more than a tenth of them is a hub the graph channel leaves out).
// Set the parameters first, e.g. :param {namespace: 'demo'}
MATCH (c:Concept {namespace: $namespace})
RETURN c.key AS concept, c.episode_count AS episodes
ORDER BY episodes DESC, concept
LIMIT 50
