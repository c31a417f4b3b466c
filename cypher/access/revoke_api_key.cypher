// Revoking a key deletes it: a server's key ring drops it at its next refresh.
MATCH (k:ApiKey {name: $key_name})
WITH k, k.name AS name
DELETE k
RETURN name
