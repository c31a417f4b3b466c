// $newer replaces $older, which stops holding at $valid_to; nothing is deleted.
MATCH (n:Fact {id: $newer})
MATCH (o:Fact {id: $older})
MERGE (n)-[:SUPERSEDES]->(o)
SET o.status = 'superseded', o.valid_to = $valid_to
