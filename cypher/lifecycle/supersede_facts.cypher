// Each newer fact replaces an older one (store/supersession.py): a SUPERSEDES link, once; the
// older becomes superseded and, where the newer says when, stops holding then. Nothing is deleted.
UNWIND $replacements AS r
MATCH (n:Fact {id: r.newer})
MATCH (o:Fact {id: r.older})
MERGE (n)-[:SUPERSEDES]->(o)
SET o.status = 'superseded', o.valid_to = coalesce(r.valid_to, o.valid_to)
