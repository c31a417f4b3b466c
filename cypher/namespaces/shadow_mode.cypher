// A namespace's shadow mode and how many episodes it has parked (their proposals are in History).
OPTIONAL MATCH (n:Namespace {name: $namespace})
OPTIONAL MATCH (e:Episode)
WHERE e.namespace = $namespace AND e.state = 'shadowed'
RETURN coalesce(n.shadow, false) AS enabled, count(e) AS parked
