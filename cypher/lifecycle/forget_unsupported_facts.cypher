// Facts every supporting episode of which is now forgotten are forgotten with them, and remember
// which episode took them along so that recovering it brings them back.
UNWIND $episodes AS episode
MATCH (f:Fact)-[:SUPPORTED_BY]->(:Episode {id: episode})
WHERE f.forgotten_at IS NULL
  AND NOT EXISTS { MATCH (f)-[:SUPPORTED_BY]->(other:Episode) WHERE other.forgotten_at IS NULL }
SET f.forgotten_at = $at, f.forgotten_with = episode
RETURN DISTINCT f.id AS id
