// Work items: one by id in a namespace, with its parent's id.
MATCH (w:WorkItem)
WHERE w.namespace = $namespace AND w.id = $id
OPTIONAL MATCH (w)-[:CHILD_OF]->(p:WorkItem)
RETURN properties(w) AS item, p.id AS parent_id
