// A counter of the test's own, created at 0 or raised by one.
MERGE (p:DialectProbe {id: $id})
ON CREATE SET p.count = 1
ON MATCH SET p.count = p.count + 1
RETURN p.count AS count
