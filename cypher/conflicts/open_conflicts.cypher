// A namespace's open conflicts, oldest first, each with the facts it holds.
MATCH (f:Fact)
WHERE f.namespace = $namespace AND f.conflict IS NOT NULL AND ($conflict IS NULL OR f.conflict = $conflict)
WITH f
ORDER BY f.conflict_at, f.id
WITH f.conflict AS id, f.conflict_kind AS kind, min(f.conflict_at) AS opened_at,
     collect({id: f.id, statement: f.statement, status: f.status, polarity: f.polarity,
              confidence: f.confidence, valid_from: f.valid_from}) AS facts
RETURN id, kind, opened_at, facts
ORDER BY opened_at, id
