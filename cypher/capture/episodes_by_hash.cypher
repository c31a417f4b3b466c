// Existing episodes for (namespace, content_hash) pairs: the dedup lookup of the capture path.
UNWIND $keys AS key
MATCH (e:Episode {namespace: key.namespace, content_hash: key.content_hash})
RETURN key.namespace AS namespace, e.content_hash AS content_hash, e.id AS id, e.observed_by AS observed_by
