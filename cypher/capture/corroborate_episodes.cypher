// Other agents captured content already stored: remember who saw it, up to $cap observers.
UNWIND $rows AS row
MATCH (e:Episode {id: row.id})
WITH e, [agent IN row.agents WHERE NOT agent IN e.observed_by] AS fresh
SET e.observed_by = (e.observed_by + fresh)[0..$cap]
