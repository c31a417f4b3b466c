// Near-duplicates (capture/near.py): a new episode that adds to a close one of its namespace points
// at it. Both ends are matched in the pair's namespace, so no link can cross a namespace.
UNWIND $pairs AS pair
MATCH (e:Episode {id: pair.new})
WHERE e.namespace = pair.namespace
MATCH (o:Episode {id: pair.old})
WHERE o.namespace = pair.namespace
CREATE (e)-[:EXTENDS {at: $at}]->(o)
