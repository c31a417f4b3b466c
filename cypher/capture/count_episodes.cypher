// New episodes added to their namespaces' counts (created on first use), the N of the graph
// channel's idf: recall reads one node where counting would read every episode of the namespace.
UNWIND $counts AS c
MERGE (n:Namespace {name: c.namespace})
SET n.episodes = coalesce(n.episodes, 0) + c.created
