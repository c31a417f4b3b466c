// A store from before stemmed keyword search: the episode has no stems, and no record says the
// migration ran.
MATCH (e:Episode {id: $id})
REMOVE e.stems
WITH count(*) AS changed
MATCH (m:Migration {id: 'episode_stems'})
DELETE m
