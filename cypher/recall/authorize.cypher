// Recall's authorization in one round trip (recall/authorize.py): which candidate ids are
// episodes ($episode_ids) and facts ($fact_ids) this caller may see under these filters, each read
// as episodes_by_id and facts_by_id read them, with what scoring needs; and the namespace's core
// facts (persona, red lines: at the top of every recall bundle, whatever the query). One statement,
// not three: on the embedded store each statement costs milliseconds of CPU however little it
// reads (docs/benchmarks.md). An empty id list reads nothing and collects an empty list.
//
// Episodes (docs/architecture.md, Recall): the filter comes first, so nothing is read of an episode the caller
// may not see, and the hits need no second lookup. Ids are looked up one by one through the id
// index: a namespace filter next to `id IN $ids` leads ArcadeDB to scan the whole namespace.
// An episode exists in valid time from when it happened, in transaction time from its capture.
// With each, for currentness in scoring: the facts it supports that still hold, and what replaced
// those it supports that do not (the newer facts, and the episodes that state them); and for a
// time window (recall/window.py), when the facts it supports began where its own words dated them.
//
// Facts: with the facts each replaced and what replaced it, the newer facts and the episodes that
// state them (for scoring); the filter comes first here too, and ids go through the id index one
// by one. Facts have no agent or session of their own, so a filter on either
// excludes them; a project filter keeps those an episode of one of the projects' sessions states.
// And the episodes that support the page's facts, as episodes_by_id reads them: a fact hit is
// shown with its provenance, and reading them here saves recall a round trip after scoring.
//
// Times come back as ISO 8601 text (store/rows.py, AUTHORIZE): the driver takes 10 to 40 µs to
// decode one temporal value, and a page holds about a hundred.
//
// Which versions count: by default the current ones. Superseded and quarantined facts come back
// when asked for ($include_superseded), to be annotated and demoted. A question about the past
// ($as_of) sees the facts that held then, superseded since or not; $known_at sees what was
// believed then, so a corrected fact counts until its correction.
CALL () {
  UNWIND $episode_ids AS id
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
    .id, .namespace, .content, .role, .agent, .session, .content_hash,
    .importance, .pinned, .tags, .observed_by, .category, .access_count, .state, .metadata,
    occurred_at: toString(m.occurred_at), captured_at: toString(m.captured_at),
    last_accessed_at: toString(m.last_accessed_at), forgotten_at: toString(m.forgotten_at),
    embedded: NOT m.embedding_pending,
    holds: [(m)<-[:SUPPORTED_BY]-(f:Fact) WHERE f.status = 'active' | f.id],
    dated: [(m)<-[:SUPPORTED_BY]-(f:Fact) WHERE f.valid_precision IS NOT NULL | toString(f.valid_from)],
    replaced_by: [(m)<-[:SUPPORTED_BY]-(old:Fact)<-[:SUPERSEDES]-(new:Fact) WHERE old.status = 'superseded' | new.id]
      + [(m)<-[:SUPPORTED_BY]-(old:Fact)<-[:SUPERSEDES]-(:Fact)-[:SUPPORTED_BY]->(x:Episode)
         WHERE old.status = 'superseded' AND x.id <> m.id | x.id]
  }) AS episodes
}
CALL () {
  UNWIND $fact_ids AS id
  MATCH (m:Fact {id: id})
  WHERE m.namespace = $namespace AND m.forgotten_at IS NULL
    AND $agents IS NULL AND $sessions IS NULL
    AND ($projects IS NULL OR any(p IN [(m)-[:SUPPORTED_BY]->(:Episode)-[:IN_SESSION]->(s:Session) | s.project]
                                  WHERE p IN $projects))
    AND ($kinds IS NULL OR m.kind IN $kinds)
    AND ($tags IS NULL OR any(tag IN m.tags WHERE tag IN $tags))
    AND ($since IS NULL OR m.recorded_at >= $since)
    AND ($until IS NULL OR m.recorded_at < $until)
    AND ($importance_min IS NULL OR m.importance >= $importance_min)
    AND ($pinned IS NULL OR m.pinned = $pinned)
    AND ($categories IS NULL OR m.category IN $categories)
    AND (m.status = 'active'
         OR (m.status = 'superseded' AND ($include_superseded OR $as_of IS NOT NULL OR $known_at IS NOT NULL))
         OR (m.status = 'quarantined' AND $include_superseded))
    AND ($as_of IS NULL OR ((m.valid_from IS NULL OR m.valid_from <= $as_of)
                            AND (m.valid_to IS NULL OR m.valid_to > $as_of)))
    AND ($known_at IS NULL OR (m.recorded_at <= $known_at
                               AND (m.expired_at IS NULL OR m.expired_at > $known_at)))
  RETURN collect(m {
    .id, .namespace, .statement, .kind, .key, .subject, .predicate, .object, .confidence,
    .importance, .version, .status, .origin, .category, .valid_precision, .pinned, .tags, .access_count,
    valid_from: toString(m.valid_from), valid_to: toString(m.valid_to), recorded_at: toString(m.recorded_at),
    expired_at: toString(m.expired_at), last_accessed_at: toString(m.last_accessed_at),
    forgotten_at: toString(m.forgotten_at),
    supported_by: [(m)-[:SUPPORTED_BY]->(e:Episode) | e.id],
    replaces: [(m)-[:SUPERSEDES]->(old:Fact) | old.id],
    replaced_by: [(m)<-[:SUPERSEDES]-(new:Fact) | new.id]
      + [(m)<-[:SUPERSEDES]-(:Fact)-[:SUPPORTED_BY]->(x:Episode) | x.id]
  }) AS facts
}
CALL () {
  UNWIND $fact_ids AS id
  MATCH (f:Fact {id: id})-[:SUPPORTED_BY]->(m:Episode)
  WHERE f.namespace = $namespace AND m.namespace = $namespace
  WITH DISTINCT m
  RETURN collect(m {
    .id, .namespace, .content, .role, .agent, .session, .content_hash,
    .importance, .pinned, .tags, .observed_by, .category, .access_count, .state, .metadata,
    occurred_at: toString(m.occurred_at), captured_at: toString(m.captured_at),
    last_accessed_at: toString(m.last_accessed_at), forgotten_at: toString(m.forgotten_at),
    embedded: NOT m.embedding_pending
  }) AS supporters
}
CALL () {
  MATCH (f:Fact {namespace: $namespace, kind: 'core'})
  WHERE f.status = 'active' AND f.forgotten_at IS NULL
  WITH f
  ORDER BY f.importance DESC, f.recorded_at
  LIMIT $core_limit
  RETURN collect(f.id) AS core
}
RETURN episodes, facts, supporters, core
