// The episodes an episode extends (its EXTENDS edges), with each end's namespace.
MATCH (e:Episode {id: $id})-[:EXTENDS]->(o:Episode)
RETURN o.id AS id, e.namespace AS namespace, o.namespace AS other_namespace
