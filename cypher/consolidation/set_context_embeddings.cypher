// Context vectors written by consolidation (consolidation/context.py).
UNWIND $rows AS row
MATCH (e:Episode {id: row.id})
SET e.context_embedding = row.embedding
