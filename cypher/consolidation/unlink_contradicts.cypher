// Remove CONTRADICTS links (a -> b) that a revision in time order no longer draws.
UNWIND $pairs AS p
MATCH (:Fact {id: p.a})-[r:CONTRADICTS]->(:Fact {id: p.b})
DELETE r
