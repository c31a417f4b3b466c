// A failed authentication of a subject (an address), counted by every server alike: the count
// starts over once $forget_s passed without a failure; past $free failures the subject waits the
// delay for its count ($delays: base_s doubling, the last one the cap). The record's write lock is
// taken before it is read (_LOCK_, set and removed: docs/architecture.md, Concurrency).
MERGE (f:AuthFailures {subject: $subject})
ON CREATE SET f.count = 0, f.last = $now
SET f._LOCK_ = true
SET f.count = CASE WHEN $now - f.last > $forget_s THEN 1 ELSE f.count + 1 END, f.last = $now
WITH f, f.count - $free - 1 AS step
SET f.blocked_until = CASE
      WHEN step < 0 THEN 0.0
      WHEN step >= size($delays) THEN $now + $delays[size($delays) - 1]
      ELSE $now + $delays[step]
    END
REMOVE f._LOCK_
RETURN f.blocked_until AS blocked_until
