// How many episodes a namespace holds: the N of the graph channel's inverse document frequency.
MATCH (e:Episode {namespace: $namespace})
RETURN count(e) AS episodes
