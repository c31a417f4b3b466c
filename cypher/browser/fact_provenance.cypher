// Neo4j Browser: facts whose statement mentions a word, what they are about, the episodes that
// support them, and the facts they replaced. :param {namespace: 'demo', word: 'Boston'}
MATCH (f:Fact {namespace: $namespace})
WHERE toLower(f.statement) CONTAINS toLower($word)
OPTIONAL MATCH about = (f)-[:ABOUT]->(:Entity)
OPTIONAL MATCH support = (f)-[:SUPPORTED_BY]->(:Episode)
OPTIONAL MATCH history = (f)-[:SUPERSEDES|CONTRADICTS*1..3]-(:Fact)
RETURN f, about, support, history
LIMIT 50
