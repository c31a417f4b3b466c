// Summaries: a session's episodes that are not forgotten, in capture order (ids are ULIDs).
MATCH (s:Session {namespace: $namespace, external_id: $session})<-[:IN_SESSION]-(e:Episode)
WHERE e.forgotten_at IS NULL
RETURN e.id AS id, e.content AS content
ORDER BY e.id
