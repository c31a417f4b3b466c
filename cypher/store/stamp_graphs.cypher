// Graphs written (store/graph_stamps.py): each namespace in $namespaces takes $version as the
// version of its graph, in the transaction that wrote it, so that a process's copy read at another
// version is not walked (store/graph_copy.py). In name order, so that writers lock Namespace nodes
// in one order. A namespace without its record has no copy to stop.
UNWIND $namespaces AS name
WITH name
ORDER BY name
MATCH (n:Namespace {name: name})
SET n.graph_version = $version
