// An episode categorized as an earlier consolidation (or an earlier version of the rules) left it.
MATCH (e:Episode {id: $id})
WHERE e.namespace = $namespace
SET e.category = $category
