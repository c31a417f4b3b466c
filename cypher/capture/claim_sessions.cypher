// A batch's sessions, created on first use, each written before anything of it is read: on Neo4j
// the write takes the session's lock (_LOCK_, set and removed: docs/architecture.md, Concurrency),
// so a capture into the same session at the same moment waits for this one to commit and then
// reads the turns it added (every read after a lock sees what the other committed). Each
// session's tail becomes the batch's last episode of it.
// Returns the session's last episode before the batch (null: none yet), with its embedding and the
// one before it's, which the batch's first turns take their context vectors from (embedding/context.py).
// A capture that names a project puts the session in it; one that names none leaves it where it is.
UNWIND $sessions AS s
MERGE (session:Session {namespace: s.namespace, external_id: s.session})
  ON CREATE SET session.id = s.id, session.name = s.session, session.started_at = $at
SET session._LOCK_ = true
SET session.last_active_at = $at, session.project = coalesce(s.project, session.project)
WITH session, s, session.tail AS previous
SET session.tail = s.episodes[size(s.episodes) - 1]
REMOVE session._LOCK_
WITH s, previous
OPTIONAL MATCH (last:Episode {id: previous})
OPTIONAL MATCH (before:Episode)-[:NEXT]->(last)
RETURN s.namespace AS namespace, s.session AS session, previous,
       last.embedding AS last, before.embedding AS before_last
