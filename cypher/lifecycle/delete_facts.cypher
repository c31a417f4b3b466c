// Erase facts with their relationships (SUPPORTED_BY, ABOUT, SUPERSEDES, CONTRADICTS).
UNWIND $ids AS id
MATCH (f:Fact {id: id})
WHERE f.namespace = $namespace
DETACH DELETE f
