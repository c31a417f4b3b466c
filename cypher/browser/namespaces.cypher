// Neo4j Browser: the namespaces this database holds, with how many episodes each and the time of
// the latest, most recent first: the values the other queries take as $namespace.
MATCH (e:Episode)
RETURN e.namespace AS namespace, count(*) AS episodes, max(e.occurred_at) AS latest
ORDER BY latest DESC
LIMIT 100
