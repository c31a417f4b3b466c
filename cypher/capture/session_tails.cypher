// What a batch's first turns in each session take their context vectors from (embedding/context.py):
// the session's last episode and the one before it (NEXT points from a turn to the one after it),
// each with its embedding, null where there is none. A session not stored yet has no row.
UNWIND $sessions AS s
MATCH (session:Session {namespace: s.namespace, external_id: s.session})
OPTIONAL MATCH (last:Episode {id: session.tail})
OPTIONAL MATCH (before:Episode)-[:NEXT]->(last)
RETURN s.namespace AS namespace, s.session AS session, last.embedding AS last, before.embedding AS before_last
