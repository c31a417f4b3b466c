// Facts whose support a commit changed: each links exactly the concepts its statements mention
// (the keys each SUPPORTED_BY edge keeps), found by key in the fact's namespace. Links no
// statement backs any more (its support moved to another version) go.
UNWIND $facts AS id
MATCH (f:Fact {id: id})
OPTIONAL MATCH (f)-[s:SUPPORTED_BY]->(:Episode)
WITH f, reduce(keys = [], said IN collect(s.concepts) | keys + coalesce(said, [])) AS keys
OPTIONAL MATCH (f)-[stale:MENTIONS_CONCEPT]->(old:Concept)
WHERE NOT old.key IN keys
DELETE stale
WITH DISTINCT f, keys
UNWIND keys AS key
MATCH (c:Concept {namespace: f.namespace, key: key})
MERGE (f)-[:MENTIONS_CONCEPT]->(c)
