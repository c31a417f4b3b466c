// Spans of the episode that name entities; counts derive from the edges, never from increments.
MATCH (e:Episode {id: $episode_id})
UNWIND $mentions AS m
MATCH (en:Entity {id: m.entity})
MERGE (e)-[r:MENTIONS {start: m.start, end: m.end}]->(en)
  ON CREATE SET r.role = m.role, r.method = m.method, r.text = m.text
WITH DISTINCT en
SET en.mention_count = COUNT { (en)<-[:MENTIONS]-(:Episode) }
