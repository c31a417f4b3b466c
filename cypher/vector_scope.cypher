// What the vector channel weighs before choosing how to search (recall/vector.py): how many
// episodes the namespace holds (kept by capture and erase on its Namespace node) and the store
// (a count by label, which both servers answer from their own counts).
OPTIONAL MATCH (n:Namespace {name: $namespace})
CALL () {
  MATCH (e:Episode)
  RETURN count(e) AS stored
}
RETURN coalesce(n.episodes, 0) AS episodes, stored
