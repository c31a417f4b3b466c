// A vector index as versions before unquantized indexes made them (Neo4j only).
CREATE VECTOR INDEX outdated_probe_embedding IF NOT EXISTS FOR (n:OutdatedProbe) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: 4, `vector.similarity_function`: 'cosine', `vector.quantization.enabled`: true}}
