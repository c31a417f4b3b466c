// Graph channel seeds: how many memories mention each entity, for hub damping.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE e.namespace = $namespace AND e.merged_into IS NULL
RETURN e.id AS id, e.mention_count AS mentions
