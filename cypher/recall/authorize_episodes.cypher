// Which candidate ids are episodes this caller may see under these filters (docs/architecture.md, Recall), as
// episodes_by_id reads them: the filter comes first, so nothing is read of an episode the caller
// may not see, and the hits need no second lookup. Ids are looked up one by one through the id
// index: a namespace filter next to `id IN $ids` leads ArcadeDB to scan the whole namespace.
// An episode exists in valid time from when it happened, in transaction time from its capture.
// With each, for currentness in scoring: the facts it supports that still hold, and what replaced
// those it supports that do not (the newer facts, and the episodes that state them); and for a
// time window (recall/window.py), when the facts it supports began where its own words dated them.
// The maps come back as one list in one record (Transaction.run_listed).
UNWIND $ids AS id
MATCH (m:Episode {id: id})
WHERE m.namespace = $namespace AND m.forgotten_at IS NULL
  AND ($kinds IS NULL OR 'episode' IN $kinds)
  AND ($agents IS NULL OR m.agent IN $agents)
  AND ($sessions IS NULL OR m.session IN $sessions)
  AND ($projects IS NULL OR any(p IN [(m)-[:IN_SESSION]->(s:Session) | s.project] WHERE p IN $projects))
  AND ($tags IS NULL OR any(tag IN m.tags WHERE tag IN $tags))
  AND ($since IS NULL OR m.occurred_at >= $since)
  AND ($until IS NULL OR m.occurred_at < $until)
  AND ($importance_min IS NULL OR m.importance >= $importance_min)
  AND ($pinned IS NULL OR m.pinned = $pinned)
  AND ($categories IS NULL OR m.category IN $categories)
  AND ($as_of IS NULL OR m.occurred_at <= $as_of)
  AND ($known_at IS NULL OR m.captured_at <= $known_at)
RETURN collect(m {
  .id, .namespace, .content, .role, .agent, .session, .occurred_at, .captured_at, .content_hash,
  .importance, .pinned, .tags, .observed_by, .category, .access_count, .last_accessed_at, .forgotten_at, .state, .metadata,
  embedded: NOT m.embedding_pending,
  holds: [(m)<-[:SUPPORTED_BY]-(f:Fact) WHERE f.status = 'active' | f.id],
  dated: [(m)<-[:SUPPORTED_BY]-(f:Fact) WHERE f.valid_precision IS NOT NULL | f.valid_from],
  replaced_by: [(m)<-[:SUPPORTED_BY]-(old:Fact)<-[:SUPERSEDES]-(new:Fact) WHERE old.status = 'superseded' | new.id]
    + [(m)<-[:SUPPORTED_BY]-(old:Fact)<-[:SUPERSEDES]-(:Fact)-[:SUPPORTED_BY]->(x:Episode)
       WHERE old.status = 'superseded' AND x.id <> m.id | x.id]
}) AS rows
