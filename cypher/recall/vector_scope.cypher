// What the vector channel weighs before choosing how to search (store/vectors.py): how many
// episodes the namespace holds (kept by capture and erase on its Namespace node), and how many
// episodes and facts the store holds (counts by label, which both servers answer from their own
// counts).
OPTIONAL MATCH (n:Namespace {name: $namespace})
CALL () {
  MATCH (e:Episode)
  RETURN count(e) AS store_episodes
}
CALL () {
  MATCH (f:Fact)
  RETURN count(f) AS store_facts
}
RETURN coalesce(n.episodes, 0) AS episodes, store_episodes, store_facts
