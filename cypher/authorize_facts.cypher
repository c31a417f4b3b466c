// Which candidate ids are current facts this caller may see under these filters; reads no content.
// Facts have no agent or session of their own, so a filter on either excludes them. Ids go
// through the id index one by one (see authorize_episodes.cypher).
UNWIND $ids AS id
MATCH (m:Fact {id: id})
WHERE m.namespace = $namespace AND m.forgotten_at IS NULL
  AND m.status = 'active'
  AND $agents IS NULL AND $sessions IS NULL
  AND ($tags IS NULL OR any(tag IN m.tags WHERE tag IN $tags))
  AND ($since IS NULL OR m.recorded_at >= $since)
  AND ($until IS NULL OR m.recorded_at < $until)
  AND ($importance_min IS NULL OR m.importance >= $importance_min)
  AND ($pinned IS NULL OR m.pinned = $pinned)
RETURN m.id AS id
