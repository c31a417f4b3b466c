// Context vectors (consolidation/context.py): each episode's own embedding and those of the two
// turns before it in its session (NEXT points from a turn to the one after it), null where a turn
// is missing or has no embedding yet.
UNWIND $ids AS id
MATCH (e:Episode {id: id})
WHERE e.embedding IS NOT NULL
OPTIONAL MATCH (p1:Episode)-[:NEXT]->(e)
OPTIONAL MATCH (p2:Episode)-[:NEXT]->(p1)
RETURN e.id AS id, e.embedding AS embedding, p1.embedding AS previous1, p2.embedding AS previous2
