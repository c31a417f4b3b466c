// Episodes by consolidation state, oldest raw capture, for status and lag.
MATCH (e:Episode)
WHERE ($namespace IS NULL OR e.namespace = $namespace) AND e.forgotten_at IS NULL
RETURN e.state AS state, count(e) AS count, min(e.captured_at) AS oldest
