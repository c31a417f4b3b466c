// mention_count is the number of MENTIONS edges; recount it after episodes were erased.
UNWIND $entities AS entity
MATCH (en:Entity {id: entity})
SET en.mention_count = COUNT { (:Episode)-[:MENTIONS]->(en) }
