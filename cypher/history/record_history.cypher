// Audit events; each row holds every property of one (no nulls).
UNWIND $rows AS props
CREATE (h:History)
SET h = props
