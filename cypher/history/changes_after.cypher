// A namespace's change record after a position, in order (index change_stream_seq).
MATCH (c:Change)
WHERE c.stream = $namespace AND c.seq > $after
RETURN c {.seq, .kind, .target, .at, .actor, .related, .reason} AS change
ORDER BY c.seq
LIMIT $limit
