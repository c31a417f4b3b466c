// The promoted copy in the target namespace, linked from its source (which stays as it was).
MATCH (s:Fact {id: $source})
CREATE (c:Fact)
SET c = $props
CREATE (s)-[:PROMOTED_TO {at: $now, actor: $actor}]->(c)
RETURN c.id AS id
