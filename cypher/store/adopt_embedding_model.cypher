// An import into a store that holds no vectors: the store's vectors are made with the file's
// embedding from now on, whatever it recorded before.
MERGE (m:EmbeddingModel {id: 'vectors'})
SET m.name = $model, m.at = $at
RETURN m.name AS name
