// Which of these ids are memories a forget may take, under its filters. Episodes count as kind
// 'episode' and are dated by occurred_at, facts by recorded_at; facts have no agent or session,
// so a filter on either leaves them out. Ids go through the id index one by one.
UNWIND $ids AS id
CALL (id) {
  MATCH (m:Episode {id: id})
  WHERE m.namespace = $namespace
  RETURN m, 'episode' AS kind, m.occurred_at AS at, m.agent AS agent, m.session AS session
  UNION
  MATCH (m:Fact {id: id})
  WHERE m.namespace = $namespace
  RETURN m, m.kind AS kind, m.recorded_at AS at, null AS agent, null AS session
}
WITH m, kind, at, agent, session
WHERE m.forgotten_at IS NULL
  AND ($include_pinned OR NOT coalesce(m.pinned, false))
  AND ($kinds IS NULL OR kind IN $kinds)
  AND ($tags IS NULL OR any(tag IN m.tags WHERE tag IN $tags))
  AND ($agents IS NULL OR agent IN $agents)
  AND ($sessions IS NULL OR session IN $sessions)
  AND ($since IS NULL OR at >= $since)
  AND ($until IS NULL OR at < $until)
  AND ($importance_min IS NULL OR m.importance >= $importance_min)
  AND ($pinned IS NULL OR coalesce(m.pinned, false) = $pinned)
  AND ($categories IS NULL OR m.category IN $categories)
RETURN DISTINCT m.id AS id
ORDER BY id
LIMIT $limit
