// Who holds the leases on a namespace's episodes (every namespace's when $namespace is null).
MATCH (e:Episode)
WHERE e.state = 'leased' AND ($namespace IS NULL OR e.namespace = $namespace)
RETURN DISTINCT e.lease_owner AS owner
