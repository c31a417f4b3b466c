// Skills: the newest version of each skill of a namespace, by name; $search (lowercase, or null)
// keeps those whose name, description or body contains it. A namespace holds few skills: scanned.
MATCH (s:Skill)
WHERE s.namespace = $namespace
WITH s.name AS name, max(s.version) AS version
MATCH (s:Skill)
WHERE s.namespace = $namespace AND s.name = name AND s.version = version
  AND ($search IS NULL OR toLower(s.name) CONTAINS $search OR toLower(s.description) CONTAINS $search
       OR toLower(s.body) CONTAINS $search)
RETURN properties(s) AS skill
ORDER BY s.name
SKIP $skip
LIMIT $first
