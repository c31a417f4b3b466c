// The entities these facts are about.
UNWIND $facts AS fact
MATCH (:Fact {id: fact})-[:ABOUT]->(en:Entity)
RETURN DISTINCT en.id AS id
