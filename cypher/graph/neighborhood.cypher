// Entities within $depth hops of a start entity over edges that held at $as_of (valid time) and
// were believed at $known_at (transaction time). CO_OCCURS carries no times and always passes.
// Edges of forgotten facts are hidden at any $known_at, as forgotten memories are everywhere.
// Edges are read in both directions and stored once (extract/relation_directions.toml names the
// reverse reading). A typed edge comes with what its strength is computed from (kernel/strength.py):
// the episodes supporting its fact as of $as_of and $known_at, and the last of them.
MATCH (start:Entity {id: $id, namespace: $namespace})
MATCH path = (start)-[rels*1..3]-(other:Entity)
WHERE length(path) <= $depth
  AND all(node IN nodes(path) WHERE node:Entity)
  AND all(r IN rels WHERE
        (r.valid_from IS NULL OR r.valid_from <= $as_of) AND (r.valid_to IS NULL OR r.valid_to > $as_of)
    AND (r.recorded_at IS NULL OR r.recorded_at <= $known_at) AND (r.expired_at IS NULL OR r.expired_at > $known_at)
    AND r.forgotten_at IS NULL)
UNWIND rels AS r
WITH DISTINCT r
LIMIT $limit
OPTIONAL MATCH (:Fact {id: r.fact})-[:SUPPORTED_BY]->(e:Episode)
WHERE e.forgotten_at IS NULL AND coalesce(e.occurred_at, e.captured_at) <= $as_of AND e.captured_at <= $known_at
WITH r, count(DISTINCT e) AS supports, max(coalesce(e.occurred_at, e.captured_at)) AS last_support
RETURN startNode(r).id AS source, endNode(r).id AS target, type(r) AS type,
       r.valid_from AS valid_from, r.valid_to AS valid_to, r.recorded_at AS recorded_at,
       r.expired_at AS expired_at, r.count AS count, r.fact AS fact,
       r.confidence AS confidence, supports, coalesce(last_support, r.recorded_at) AS last_support
