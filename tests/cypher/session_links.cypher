// A session's episodes, each with the episode its NEXT link comes from and the count of those
// (tests/test_context_channel.py: a chain has one predecessor a turn, and one turn with none).
MATCH (e:Episode)-[:IN_SESSION]->(:Session {namespace: $namespace, external_id: $session})
OPTIONAL MATCH (before:Episode)-[:NEXT]->(e)
RETURN e.id AS id, collect(before.id) AS before
