// Believed facts about one subject with one predicate and either of two opposite polarities,
// with their CONTRADICTS links in either direction and the open conflict (mode ask) each is held in.
MATCH (:Entity {id: $subject})<-[:ABOUT {role: 'subject'}]-(f:Fact)
WHERE f.namespace = $namespace AND f.predicate = $predicate AND f.polarity IN $polarities
  AND f.status IN ['active', 'quarantined'] AND f.forgotten_at IS NULL
RETURN f.id AS id, f.polarity AS polarity, f.status AS status, f.confidence AS confidence,
       f.valid_from AS valid_from, f.content_hash AS hash, [(f)-[:CONTRADICTS]-(g:Fact) | g.id] AS contradicts,
       f.conflict AS conflict
