// The facts these episodes support take their category (docs/memory-management.md, Knowledge
// categories): a fact without one takes the episode's; a general fact takes a specific one. A
// specific category is never replaced, so the order the episodes come in does not matter.
UNWIND $ids AS id
MATCH (e:Episode {id: id})<-[:SUPPORTED_BY]-(f:Fact)
WHERE f.category IS NULL OR (f.category = $general AND e.category <> $general)
SET f.category = e.category
