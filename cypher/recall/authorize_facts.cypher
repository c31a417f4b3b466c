// Which candidate ids are facts this caller may see under these filters (docs/architecture.md, Recall), as
// facts_by_id reads them, with the facts each replaced and what replaced it, the newer facts and
// the episodes that state them (for scoring); the filter comes first, so
// nothing is read of a fact the caller may not see. Ids go through the id index one by one (see
// authorize_episodes.cypher). Facts have no agent or session of their own, so a filter on either
// excludes them; a project filter keeps those an episode of one of the projects' sessions states.
//
// Which versions count: by default the current ones. Superseded and quarantined facts come back
// when asked for ($include_superseded), to be annotated and demoted. A question about the past
// ($as_of) sees the facts that held then, superseded since or not; $known_at sees what was
// believed then, so a corrected fact counts until its correction.
// The maps come back as one list in one record (Transaction.run_listed).
UNWIND $ids AS id
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
  .importance, .version, .status, .origin, .category, .valid_from, .valid_to, .valid_precision, .recorded_at, .expired_at,
  .pinned, .tags, .access_count, .last_accessed_at, .forgotten_at,
  supported_by: [(m)-[:SUPPORTED_BY]->(e:Episode) | e.id],
  replaces: [(m)-[:SUPERSEDES]->(old:Fact) | old.id],
  replaced_by: [(m)<-[:SUPERSEDES]-(new:Fact) | new.id]
    + [(m)<-[:SUPERSEDES]-(:Fact)-[:SUPPORTED_BY]->(x:Episode) | x.id]
}) AS rows
