MATCH (p:DialectProbe {id: $id})
DELETE p
