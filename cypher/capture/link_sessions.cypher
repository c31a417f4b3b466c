// Put new episodes in their sessions (created on first use), in capture order; returns each
// session's previous last episode so that the caller can continue the NEXT chain from it.
// A capture that names a project puts the session in it; one that names none leaves it where it is.
UNWIND $sessions AS s
MERGE (session:Session {namespace: s.namespace, external_id: s.session})
  ON CREATE SET session.id = s.id, session.name = s.session, session.started_at = $at
WITH session, s, session.tail AS previous
SET session.last_active_at = $at, session.tail = s.episodes[size(s.episodes) - 1],
    session.project = coalesce(s.project, session.project)
WITH session, s, previous
UNWIND s.episodes AS episode_id
MATCH (e:Episode {id: episode_id})
CREATE (e)-[:IN_SESSION]->(session)
RETURN DISTINCT s.namespace AS namespace, s.session AS session, previous
