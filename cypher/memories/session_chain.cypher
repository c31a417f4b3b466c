// A session's episodes in NEXT order, from the one nothing points at.
MATCH (s:Session {namespace: $namespace, external_id: $session})<-[:IN_SESSION]-(first:Episode)
WHERE NOT EXISTS { MATCH (:Episode)-[:NEXT]->(first) }
MATCH path = (first)-[:NEXT*0..]->(e:Episode)
RETURN e.id AS id
ORDER BY length(path)
