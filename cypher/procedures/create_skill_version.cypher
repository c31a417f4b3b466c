// Skills: a new version. The unique (namespace, name, version) constraint turns a concurrent save
// of the same version into a conflict, which the caller retries on the newer version.
CREATE (s:Skill)
SET s = $props
RETURN properties(s) AS skill
