// Repair a split: what named the source now names the target (MENTIONS and ABOUT move).
MATCH (s:Entity {id: $source, namespace: $namespace})
MATCH (t:Entity {id: $target, namespace: $namespace})
CALL (s, t) {
  MATCH (e:Episode)-[m:MENTIONS]->(s)
  MERGE (e)-[moved:MENTIONS {start: m.start, end: m.end}]->(t)
    ON CREATE SET moved.role = m.role, moved.method = 'merged', moved.text = m.text
  DELETE m
}
CALL (s, t) {
  MATCH (f:Fact)-[a:ABOUT]->(s)
  MERGE (f)-[:ABOUT {role: a.role}]->(t)
  DELETE a
}
SET t.mention_count = COUNT { (t)<-[:MENTIONS]-(:Episode) },
    t.first_seen_at = CASE WHEN s.first_seen_at < t.first_seen_at THEN s.first_seen_at ELSE t.first_seen_at END,
    t.last_seen_at = CASE WHEN s.last_seen_at > t.last_seen_at THEN s.last_seen_at ELSE t.last_seen_at END
