// Vector indexes an earlier version made with Neo4j's default quantization: start-up drops them
// and the schema makes them again unquantized (cypher/schema/neo4j.cypher says why).
SHOW VECTOR INDEXES YIELD name, options
WHERE options.indexConfig['vector.quantization.enabled'] = true
RETURN name
