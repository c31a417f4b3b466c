// The facts an episode took along when it was forgotten come back with it.
MATCH (f:Fact)-[:SUPPORTED_BY]->(:Episode {id: $episode})
WHERE f.namespace = $namespace AND f.forgotten_with = $episode
SET f.forgotten_at = null
REMOVE f.forgotten_with
RETURN f.id AS id
