// The PROMOTED_TO edges from a fact, with each end's namespace.
MATCH (s:Fact {id: $id})-[p:PROMOTED_TO]->(c:Fact)
RETURN c.id AS id, s.namespace AS namespace, c.namespace AS target, p.actor AS actor
