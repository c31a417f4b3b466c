// Every user alias of a namespace, for spotting them in its episodes.
MATCH (a:Alias {namespace: $namespace})-[:ALIAS_OF]->(en:Entity)
RETURN a.name AS alias, a.key AS key, en.id AS id, en.name AS name, en.type AS type, en.canonical AS canonical
