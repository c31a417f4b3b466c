// Whether a namespace blocks destructive proposals, and how many consolidation has blocked there:
// each is a History node on the namespace (event consolidation_blocked; History.target is indexed).
OPTIONAL MATCH (n:Namespace {name: $namespace})
OPTIONAL MATCH (h:History {target: $namespace})
WHERE h.namespace = $namespace AND h.event = 'consolidation_blocked'
RETURN coalesce(n.block_destructive, false) AS enabled, count(h) AS blocked
