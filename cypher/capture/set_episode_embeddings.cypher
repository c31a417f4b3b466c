UNWIND $rows AS row
MATCH (e:Episode {id: row.id})
SET e.embedding = row.embedding, e.embedding_pending = false
