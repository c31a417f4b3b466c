// The change record memoryEvents reads, written in the transaction of the write it records: each
// event gets the next number of its namespace's stream. The stream's write lock is taken before
// its counter is read (_LOCK_, set and removed: docs/architecture.md, Concurrency) and held until
// the commit: numbers are given in commit order,
// with no gaps (a rolled back write gives its numbers back), and a reader that has seen number n
// has seen every number before it.
MERGE (s:ChangeStream {name: $namespace})
SET s._LOCK_ = true
SET s.seq = coalesce(s.seq, 0) + size($events)
REMOVE s._LOCK_
WITH s.seq - size($events) AS base
UNWIND range(0, size($events) - 1) AS i
WITH base + i + 1 AS seq, $events[i] AS e
CREATE (c:Change {stream: $namespace, seq: seq, kind: e.kind, target: e.target, at: e.at, actor: e.actor})
SET c.related = CASE WHEN size(e.related) > 0 THEN e.related END, c.reason = e.reason
