// The embedding this store's vectors were made with (none recorded: a new store, or one older
// than the record).
MATCH (m:EmbeddingModel {id: 'vectors'})
RETURN m.name AS name
