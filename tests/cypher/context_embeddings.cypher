// The context vectors episodes hold, by id (tests/test_context_channel.py).
UNWIND $ids AS id
MATCH (e:Episode {id: id})
RETURN e.id AS id, e.context_embedding AS context
