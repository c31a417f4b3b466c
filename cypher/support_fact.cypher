// Another episode states a known fact: it gains provenance, and its edge gains strength.
MATCH (f:Fact {id: $fact_id})
MATCH (e:Episode {id: $episode_id})
MERGE (f)-[:SUPPORTED_BY]->(e)
