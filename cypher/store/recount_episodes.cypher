// Every namespace's episode count from the episodes themselves: once, for a store from before
// the counts were kept (store.py).
MATCH (e:Episode)
WITH e.namespace AS name, count(e) AS episodes
MERGE (n:Namespace {name: name})
SET n.episodes = episodes
