// An episode leaves its session (erase): the context vectors of the two turns after it hold its
// embedding, so they go with it. Run before the NEXT chain is relinked. Returns the turns cleared.
MATCH (:Episode {id: $id})-[:NEXT]->(n1:Episode)
OPTIONAL MATCH (n1)-[:NEXT]->(n2:Episode)
UNWIND [n1, n2] AS n
WITH n
WHERE n IS NOT NULL
REMOVE n.context_embedding
RETURN n.id AS id
