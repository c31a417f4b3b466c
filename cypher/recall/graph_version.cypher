// What the graph channel reads before it walks a process's copy of the namespace's graph
// (store/graph_copy.py): whether the namespace has its record, the version of its graph (null
// until a write gives it one: store/graph_stamps.py) and its episode count (the walk's N).
OPTIONAL MATCH (n:Namespace {name: $namespace})
RETURN n IS NOT NULL AS recorded, n.graph_version AS version, coalesce(n.episodes, 0) AS episodes
