// Session order: each episode points at the next one of its session.
UNWIND $pairs AS pair
MATCH (p:Episode {id: pair.previous})
MATCH (e:Episode {id: pair.next})
CREATE (p)-[:NEXT]->(e)
