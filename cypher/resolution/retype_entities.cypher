// Entities whose type vote now chooses another type take it (consolidation/types.py), unless an
// entity of that type with the same canonical name already exists: two entities never share a key.
UNWIND $changes AS c
MATCH (en:Entity {id: c.id})
WHERE en.type = c.from
  AND NOT EXISTS { MATCH (:Entity {namespace: en.namespace, type: c.to, canonical: en.canonical}) }
SET en.type = c.to
