// Import: new relationships of one type between nodes of two labels, found by id; each row holds
// both ends' ids and every property. RELATION_TYPE, START_LABEL and END_LABEL are put in by the
// store (store.py). Returns how many were made, so that an end not found fails the batch.
UNWIND $rows AS row
MATCH (a:START_LABEL {id: row.start})
MATCH (b:END_LABEL {id: row.end})
CREATE (a)-[r:RELATION_TYPE]->(b)
SET r = row.properties
RETURN count(r) AS created
