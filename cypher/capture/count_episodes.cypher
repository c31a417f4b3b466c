// New episodes added to their namespaces' counts (created on first use), the N of the graph
// channel's idf: recall reads one node where counting would read every episode of the namespace.
// The node's write lock is taken before the count is read (_LOCK_, set and removed:
// docs/architecture.md, Concurrency).
UNWIND $counts AS c
MERGE (n:Namespace {name: c.namespace})
SET n._LOCK_ = true
SET n.episodes = coalesce(n.episodes, 0) + c.created
REMOVE n._LOCK_
