// Remove SUPERSEDES links (a -> b) that a revision in time order no longer draws.
UNWIND $pairs AS p
MATCH (:Fact {id: p.a})-[r:SUPERSEDES]->(:Fact {id: p.b})
DELETE r
