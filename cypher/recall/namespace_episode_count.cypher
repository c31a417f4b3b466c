// How many episodes a namespace holds: the N of the graph channel's inverse document frequency,
// kept by capture and erase (count_episodes, delete_episode); 0 for a namespace never captured in.
OPTIONAL MATCH (n:Namespace {name: $namespace})
RETURN coalesce(n.episodes, 0) AS episodes
