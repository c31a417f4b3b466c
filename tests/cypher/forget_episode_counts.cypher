// A store from before namespace episode counts: no count, and no record that the migration ran.
MATCH (n:Namespace {name: $namespace})
DELETE n
WITH count(*) AS deleted
MATCH (m:Migration {id: 'namespace_episode_counts'})
DELETE m
