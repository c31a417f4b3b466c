// One audit event; $props holds every property (no nulls).
CREATE (h:History)
SET h = $props
