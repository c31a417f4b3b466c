// Whether the store holds any episode, in any namespace: one is enough.
MATCH (e:Episode)
RETURN e.id AS id
LIMIT 1
