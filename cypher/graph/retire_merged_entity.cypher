// The source stays as a tombstone pointing at the target (history), its names become aliases of
// the target, and anything left between the two is dropped.
MATCH (s:Entity {id: $source, namespace: $namespace})
MATCH (t:Entity {id: $target, namespace: $namespace})
OPTIONAL MATCH (s)-[between]-(t)
DELETE between
WITH DISTINCT s, t
SET s.merged_into = t.id, s.merged_at = $at, s.mention_count = 0,
    t.aliases = [name IN coalesce(t.aliases, []) + [s.name] + coalesce(s.aliases, []) WHERE name <> t.name | name]
WITH s, t
MERGE (a:Alias {namespace: $namespace, key: s.canonical})
  ON CREATE SET a.id = $alias_id, a.name = s.name, a.created_at = $at
WITH s, t, a
OPTIONAL MATCH (a)-[old:ALIAS_OF]->()
DELETE old
WITH DISTINCT s, t, a
MERGE (a)-[:ALIAS_OF]->(t)
WITH s, t
OPTIONAL MATCH (other:Alias)-[link:ALIAS_OF]->(s)
WHERE other.key <> s.canonical
DELETE link
WITH DISTINCT t, other
WHERE other IS NOT NULL
MERGE (other)-[:ALIAS_OF]->(t)
