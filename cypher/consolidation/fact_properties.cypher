// Every stored property of a fact, to copy into its next version (modify).
MATCH (f:Fact {id: $id})
WHERE f.namespace = $namespace
RETURN properties(f) AS props
