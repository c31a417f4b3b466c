// Work items: a new state.
MATCH (w:WorkItem)
WHERE w.namespace = $namespace AND w.id = $id
SET w.state = $state, w.updated_at = $at
WITH w
OPTIONAL MATCH (w)-[:CHILD_OF]->(p:WorkItem)
RETURN properties(w) AS item, p.id AS parent_id
