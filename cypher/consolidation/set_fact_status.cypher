// Settle who is believed after a contradiction: active or quarantined.
UNWIND $facts AS x
MATCH (f:Fact {id: x.id})
SET f.status = x.status
