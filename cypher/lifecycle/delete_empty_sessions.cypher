// A session whose last episode was erased goes too.
UNWIND $ids AS id
MATCH (s:Session {id: id})
WHERE NOT EXISTS { (:Episode)-[:IN_SESSION]->(s) }
DETACH DELETE s
