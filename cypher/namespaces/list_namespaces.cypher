// The namespaces captured in (each has its record from its first capture), with their episode counts.
MATCH (n:Namespace)
RETURN n.name AS name, coalesce(n.episodes, 0) AS episodes
ORDER BY name
