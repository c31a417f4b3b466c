// Work items: a new one is a child of its parent (the caller checked the parent exists).
MATCH (w:WorkItem {id: $id})
MATCH (p:WorkItem {id: $parent})
WHERE w.namespace = $namespace AND p.namespace = $namespace
CREATE (w)-[:CHILD_OF]->(p)
