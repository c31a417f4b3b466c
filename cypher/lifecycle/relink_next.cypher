// An episode leaves its session: the episodes before and after it in the NEXT chain are joined.
MATCH (p:Episode)-[:NEXT]->(:Episode {id: $id})-[:NEXT]->(n:Episode)
MERGE (p)-[:NEXT]->(n)
