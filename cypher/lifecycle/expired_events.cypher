// Event TTL (docs/architecture.md, The graph): events never accessed, of at most ordinary importance, recorded before
// the cutoff and not pinned are due to be forgotten.
MATCH (f:Fact {kind: 'event'})
WHERE ($namespace IS NULL OR f.namespace = $namespace)
  AND f.forgotten_at IS NULL AND f.recorded_at < $cutoff
  AND coalesce(f.access_count, 0) = 0 AND f.importance <= $max_importance
  AND NOT coalesce(f.pinned, false)
RETURN f.namespace AS namespace, f.id AS id
ORDER BY id
LIMIT $limit
