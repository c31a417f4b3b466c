// Work items of a namespace, oldest first: all, or the children of $parent (an id), or the top
// level ($top: no parent); $state (or null) keeps one state.
MATCH (w:WorkItem)
WHERE w.namespace = $namespace AND ($state IS NULL OR w.state = $state)
OPTIONAL MATCH (w)-[:CHILD_OF]->(p:WorkItem)
WITH w, p
WHERE ($parent IS NULL OR p.id = $parent) AND (NOT $top OR p IS NULL)
RETURN properties(w) AS item, p.id AS parent_id
ORDER BY w.created_at, w.id
SKIP $skip
LIMIT $first
