// Summaries quoting an episode that is being erased go with it: a line is the episode's text.
// The next read of the session builds its summary again from what is left.
MATCH (m:Summary)-[:SUMMARIZES]->(e:Episode {id: $id})
WHERE e.namespace = $namespace
DETACH DELETE m
