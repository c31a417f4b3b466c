// A one-time data migration has run: later start-ups skip it.
MERGE (m:Migration {id: $id})
ON CREATE SET m.at = $at
