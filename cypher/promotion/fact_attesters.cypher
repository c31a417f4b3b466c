// Who attests each current or quarantined fact of a namespace (the promotion gates' evidence):
// the agents and observers of the unforgotten episodes that state it, and for a remembered fact the
// actors that remembered it or stated it again (History: created, corroborated).
MATCH (f:Fact)
WHERE f.namespace = $namespace AND f.status IN ['active', 'quarantined'] AND f.forgotten_at IS NULL
OPTIONAL MATCH (f)-[:SUPPORTED_BY]->(e:Episode)
WHERE e.forgotten_at IS NULL
WITH f, collect(coalesce(e.observed_by, [e.agent])) AS heard
OPTIONAL MATCH (h:History)
WHERE h.target = f.id AND h.namespace = $namespace
  AND (h.event = 'corroborated' OR (h.event = 'created' AND f.origin = 'explicit'))
WITH f, heard, collect(h.actor) AS told
RETURN collect({id: f.id, status: f.status, heard: heard, told: told}) AS rows
