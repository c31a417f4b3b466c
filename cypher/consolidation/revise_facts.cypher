// Facts whose place in time was worked out again: validity, status, and the statement that
// first said it (its words, kind, confidence and, when known, its vector).
UNWIND $facts AS x
MATCH (f:Fact {id: x.id})
SET f.valid_from = x.valid_from, f.valid_to = x.valid_to, f.valid_precision = x.valid_precision, f.status = x.status, f.statement = x.statement,
    f.confidence = x.confidence, f.kind = x.kind, f.embedding = coalesce(x.embedding, f.embedding)
