// Summaries: the one kept for a session, if any.
MATCH (m:Summary {namespace: $namespace, scope: $scope, key: $key})
RETURN properties(m) AS summary
