// The concepts a batch of episodes is about (extraction/concepts.py), found by their key within
// the namespace or minted, and one MENTIONS_CONCEPT edge per episode and concept. episode_count
// moves only when an edge is created, so it always equals the number of edges (the concept's
// document frequency, for the graph channel's idf) and replaying an episode leaves it as it is.
// The node holds only its key: what an episode said stays on the episode's own edge. The concept's
// write lock is taken before it is read (_LOCK_, set and removed: docs/architecture.md,
// Concurrency): workers consolidating episodes about one concept take turns at it.
UNWIND $links AS x
MATCH (e:Episode {id: x.episode})
MERGE (c:Concept {namespace: x.namespace, key: x.key})
  ON CREATE SET c.id = x.id, c.name = x.key, c.episode_count = 0, c.first_seen_at = x.at
SET c._LOCK_ = true
SET c.first_seen_at = CASE WHEN x.at < c.first_seen_at THEN x.at ELSE c.first_seen_at END
MERGE (e)-[r:MENTIONS_CONCEPT]->(c)
  ON CREATE SET r.start = x.start, r.end = x.end, r.text = x.text, c.episode_count = c.episode_count + 1
REMOVE c._LOCK_
