// The number of a namespace's latest change; 0 before its first.
OPTIONAL MATCH (s:ChangeStream {name: $namespace})
RETURN coalesce(s.seq, 0) AS seq
