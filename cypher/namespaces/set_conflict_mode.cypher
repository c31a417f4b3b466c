// Set a namespace's conflict mode for one kind of statement; a null parameter leaves that kind's
// mode as it is. The record may not exist yet: a mode can be set before the first capture.
MERGE (n:Namespace {name: $namespace})
ON CREATE SET n.episodes = 0
SET n.conflict_attribute = coalesce($attribute, n.conflict_attribute),
    n.conflict_relation = coalesce($relation, n.conflict_relation)
RETURN n.name AS name
