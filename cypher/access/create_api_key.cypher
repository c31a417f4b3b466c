// A new API key: its name, role, namespaces and the hash of its secret (never the secret).
CREATE (k:ApiKey)
SET k = $props
RETURN k.id AS id
