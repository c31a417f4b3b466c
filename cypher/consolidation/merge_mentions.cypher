// Spans of episodes that name entities. mention_count moves only when an edge is created, so it
// always equals the number of MENTIONS edges, and replaying an episode leaves it as it is.
UNWIND $mentions AS m
MATCH (e:Episode {id: m.episode})
MATCH (en:Entity {id: m.entity})
MERGE (e)-[r:MENTIONS {start: m.start, end: m.end}]->(en)
  ON CREATE SET r.role = m.role, r.method = m.method, r.text = m.text,
                en.mention_count = coalesce(en.mention_count, 0) + 1
