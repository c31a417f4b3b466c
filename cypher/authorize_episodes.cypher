// Which candidate ids are episodes this caller may see under these filters; reads no content.
// Ids are looked up one by one through the id index: a namespace filter next to `id IN $ids`
// leads ArcadeDB to scan the whole namespace instead.
UNWIND $ids AS id
MATCH (m:Episode {id: id})
WHERE m.namespace = $namespace AND m.forgotten_at IS NULL
  AND ($agents IS NULL OR m.agent IN $agents)
  AND ($sessions IS NULL OR m.session IN $sessions)
  AND ($tags IS NULL OR any(tag IN m.tags WHERE tag IN $tags))
  AND ($since IS NULL OR m.occurred_at >= $since)
  AND ($until IS NULL OR m.occurred_at < $until)
  AND ($importance_min IS NULL OR m.importance >= $importance_min)
  AND ($pinned IS NULL OR m.pinned = $pinned)
RETURN m.id AS id
