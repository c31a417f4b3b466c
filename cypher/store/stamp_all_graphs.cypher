// A graph written in a namespace its transaction did not name (store/graph_stamps.py): every
// namespace takes $version as the version of its graph, so that no process walks a copy of it
// read before (store/graph_copy.py).
MATCH (n:Namespace)
WITH n
ORDER BY n.name
SET n.graph_version = $version
