// Every version of each probed fact identity, newest first, and whether the probing episode
// supports it.
UNWIND $probes AS p
MATCH (f:Fact {namespace: p.namespace, content_hash: p.hash})
RETURN p.namespace AS namespace, p.hash AS hash, p.episode_id AS episode_id, f.id AS id, f.status AS status,
       EXISTS { (f)-[:SUPPORTED_BY]->(:Episode {id: p.episode_id}) } AS supported
ORDER BY f.recorded_at DESC, f.id DESC
