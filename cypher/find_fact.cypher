// Every version of a fact with this identity, newest first, and whether this episode supports it.
MATCH (f:Fact {namespace: $namespace, content_hash: $hash})
RETURN f.id AS id, f.status AS status,
       EXISTS { (f)-[:SUPPORTED_BY]->(:Episode {id: $episode_id}) } AS supported
ORDER BY f.recorded_at DESC, f.id DESC
