// When the session's last episode leaves, the tail moves back to the one before it (or none).
MATCH (e:Episode {id: $id})-[:IN_SESSION]->(s:Session)
WHERE s.tail = $id
OPTIONAL MATCH (p:Episode)-[:NEXT]->(e)
SET s.tail = p.id
