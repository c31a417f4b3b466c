// Inside a rehearsed commit (rolled back after): what the facts it created or revised say, for
// the History of a shadow-mode episode.
UNWIND $ids AS id
MATCH (f:Fact {id: id})
RETURN f.id AS id, f.statement AS statement, f.kind AS kind
