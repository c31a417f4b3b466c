// Another episode states a known fact: it gains provenance. An extracted fact is dated and worded
// by the earliest episode that states it (by time, then id), whichever was consolidated first,
// and valid from the time that statement gives ($at: "last spring"), else its episode's.
MATCH (f:Fact {id: $fact_id})
MATCH (e:Episode {id: $episode_id})
MERGE (f)-[r:SUPPORTED_BY]->(e)
SET r.position = $position, r.statement = $statement, r.confidence = $confidence, r.kind = $kind,
    r.concepts = $concepts, r.at = $at, r.until = $until, r.precision = $precision
WITH f, e, [(f)-[:SUPPORTED_BY]->(x:Episode)
            WHERE x.occurred_at < e.occurred_at OR (x.occurred_at = e.occurred_at AND x.id < e.id) | x.id] AS earlier
WHERE f.origin = 'extracted' AND size(earlier) = 0
SET f.valid_from = coalesce($at, e.occurred_at), f.valid_to = $until, f.valid_precision = $precision,
    f.statement = $statement, f.confidence = $confidence, f.kind = $kind,
    f.embedding = coalesce($embedding, f.embedding)
