// Put a batch's new episodes in their sessions (claim_sessions found or made each), in capture order.
UNWIND $sessions AS s
MATCH (session:Session {namespace: s.namespace, external_id: s.session})
UNWIND s.episodes AS episode_id
MATCH (e:Episode {id: episode_id})
CREATE (e)-[:IN_SESSION]->(session)
