// Graph channel, one hop of spreading activation: the entity edges leaving the frontier that held
// at $as_of (valid time) and were believed at $known_at (transaction time), with the strength that
// scales the activation passed and the source's degree that damps hubs. CO_OCCURS carries no
// times and always passes; its count is its strength. Edges of forgotten facts are hidden at any
// $known_at, as forgotten memories are everywhere.
// The rows come back as one list in one record (Transaction.run_listed).
UNWIND $frontier AS id
MATCH (source:Entity {id: id})
WHERE source.namespace = $namespace
WITH source, COUNT { (source)--(:Entity) } AS degree
MATCH (source)-[r]-(target:Entity)
WHERE (r.valid_from IS NULL OR r.valid_from <= $as_of) AND (r.valid_to IS NULL OR r.valid_to > $as_of)
  AND (r.recorded_at IS NULL OR r.recorded_at <= $known_at) AND (r.expired_at IS NULL OR r.expired_at > $known_at)
  AND r.forgotten_at IS NULL
RETURN collect({source: source.id, target: target.id, type: type(r),
                strength: coalesce(r.strength, r.count, 1), degree: degree,
                target_mentions: target.mention_count}) AS rows
