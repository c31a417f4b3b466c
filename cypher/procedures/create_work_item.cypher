// Work items: a new one.
CREATE (w:WorkItem)
SET w = $props
RETURN properties(w) AS item
