// The extracted versions of one subject's relation of one type (statements and denials alike),
// each with the episodes that state it, the typed edge that mirrors it and its links to others,
// for belief revision to work out again in time order. RELATION_TYPE: see create_relation.cypher.
// A statement held aside because its revision was blocked (blocked_at) is no version.
MATCH (s:Entity {id: $subject})<-[:ABOUT {role: 'subject'}]-(f:Fact)-[:ABOUT {role: 'object'}]->(o:Entity)
WHERE f.namespace = $namespace AND f.predicate = $predicate AND f.origin = 'extracted'
  AND f.forgotten_at IS NULL AND f.expired_at IS NULL AND f.blocked_at IS NULL
RETURN f.id AS id, o.id AS object, f.negated AS negated, f.status AS status, f.valid_from AS valid_from,
       f.valid_to AS valid_to, f.valid_precision AS valid_precision, f.confidence AS confidence, f.statement AS statement, f.kind AS kind,
       [(f)-[r:SUPPORTED_BY]->(e:Episode) | {episode: e.id, at: coalesce(r.at, e.occurred_at),
                                              until: r.until, precision: r.precision, position: r.position,
                                              confidence: r.confidence, statement: r.statement, kind: r.kind,
                                              concepts: r.concepts}] AS said,
       [(f)-[:SUPERSEDES]->(g:Fact) | g.id] AS supersedes,
       [(f)-[:CONTRADICTS]->(g:Fact) | g.id] AS contradicts,
       [(s)-[r:RELATION_TYPE]->(o) WHERE r.fact = f.id | {valid_from: r.valid_from, valid_to: r.valid_to,
                                                          confidence: r.confidence, strength: r.strength,
                                                          expired: r.expired_at IS NOT NULL}] AS edges
