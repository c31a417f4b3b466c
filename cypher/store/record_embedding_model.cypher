// Record the embedding this store's vectors are made with; a record already there stays.
MERGE (m:EmbeddingModel {id: 'vectors'})
ON CREATE SET m.name = $model, m.at = $at
RETURN m.name AS name
