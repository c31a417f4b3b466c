// A corrected version of a fact: it replaces the old one in transaction time (we learned the old
// one was wrong, so its expired_at closes; its valid time stays as it was) and keeps its provenance.
MATCH (o:Fact {id: $older})
CREATE (n:Fact)
SET n = $props
MERGE (n)-[:SUPERSEDES]->(o)
SET o.status = 'superseded', o.expired_at = $now
WITH o, n
CALL (o, n) {
  MATCH (o)-[:SUPPORTED_BY]->(e:Episode)
  MERGE (n)-[:SUPPORTED_BY]->(e)
}
CALL (o, n) {
  MATCH (o)-[a:ABOUT]->(en:Entity)
  MERGE (n)-[:ABOUT {role: a.role}]->(en)
}
RETURN n.id AS id
