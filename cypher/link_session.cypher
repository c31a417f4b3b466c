// Put an episode in its session (created on first use); returns the session's previous last
// episode so that the caller can chain them with NEXT.
MATCH (e:Episode {id: $episode_id})
MERGE (s:Session {namespace: $namespace, external_id: $session})
  ON CREATE SET s.id = $session_id, s.name = $session, s.started_at = $at
SET s.last_active_at = $at
WITH e, s, s.tail AS previous
SET s.tail = e.id
CREATE (e)-[:IN_SESSION]->(s)
RETURN previous
