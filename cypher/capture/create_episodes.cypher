// New episodes; each row holds every property of one (no nulls).
UNWIND $rows AS props
CREATE (e:Episode)
SET e = props
