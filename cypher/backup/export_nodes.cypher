// Export: a page of one label's nodes in a namespace, in id order after $after, each with every
// property and every relationship it starts (with the label and id of its end). NODE_LABEL is
// put in by the store (store.py): Cypher takes no label as a parameter.
MATCH (n:NODE_LABEL)
WHERE n.namespace = $namespace AND n.id > $after
WITH n
ORDER BY n.id
LIMIT $limit
RETURN n.id AS id, properties(n) AS properties,
       [(n)-[r]->(m) | {type: type(r), end_label: labels(m)[0], end: m.id, properties: properties(r)}] AS out
