// Every index the server holds: what schema setup created.
SHOW INDEXES YIELD name, type, labelsOrTypes, properties
RETURN name, type, labelsOrTypes AS labels, properties
ORDER BY name
