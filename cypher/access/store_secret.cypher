// A secret of the store as a whole (the key that signs confirm tokens), made by the first process
// that asks for it, so that every server sharing the store uses the same. No GraphQL field, export
// or dump reads this label.
MERGE (s:Secret {id: $id})
ON CREATE SET s.value = $candidate, s.created_at = $now
RETURN s.value AS value
