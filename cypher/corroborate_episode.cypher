// Another agent captured the same content: remember who saw it, up to $cap observers.
MATCH (e:Episode {id: $id})
SET e.observed_by = CASE
  WHEN $agent IN e.observed_by OR size(e.observed_by) >= $cap THEN e.observed_by
  ELSE e.observed_by + $agent
END
RETURN e.id AS id
