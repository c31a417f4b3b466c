// Every namespace's episode count from the episodes themselves: once, for a store from before
// the counts were kept (store.py). Each namespace's write lock is taken before its episodes are
// counted (_LOCK_, set and removed: docs/architecture.md, Concurrency): a capture that commits
// meanwhile is either counted here or adds itself to this count after, never lost.
MATCH (e:Episode)
WITH DISTINCT e.namespace AS name
MERGE (n:Namespace {name: name})
SET n._LOCK_ = true
WITH n
CALL (n) {
  MATCH (e:Episode {namespace: n.name})
  RETURN count(e) AS episodes
}
SET n.episodes = episodes
REMOVE n._LOCK_
