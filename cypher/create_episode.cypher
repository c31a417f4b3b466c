// A new episode; $props holds every property (no nulls).
CREATE (e:Episode)
SET e = $props
RETURN e.id AS id
