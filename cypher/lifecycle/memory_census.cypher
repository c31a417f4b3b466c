// What stats needs of every memory of a namespace to compute retention now; never content.
CALL () {
  MATCH (m:Episode)
  WHERE m.namespace = $namespace
  RETURN m, 'episode' AS kind, m.captured_at AS created_at, null AS status
  UNION
  MATCH (m:Fact)
  WHERE m.namespace = $namespace
  RETURN m, m.kind AS kind, m.recorded_at AS created_at, m.status AS status
}
RETURN kind, status, created_at, m.last_accessed_at AS last_accessed_at,
       coalesce(m.access_count, 0) AS access_count, coalesce(m.pinned, false) AS pinned,
       m.forgotten_at IS NOT NULL AS forgotten
