// Before an episode is erased: its concepts lose one episode, and a concept no other episode is
// about goes with it, so that nothing derived from the erased text stays behind.
MATCH (e:Episode {id: $id})-[:MENTIONS_CONCEPT]->(c:Concept)
WHERE e.namespace = $namespace
SET c.episode_count = c.episode_count - 1
WITH c
WHERE c.episode_count <= 0
DETACH DELETE c
