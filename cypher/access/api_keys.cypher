// Every API key, without its secret's hash: for listing, and for a server's key ring.
MATCH (k:ApiKey)
RETURN collect(k {.id, .name, .role, .namespaces, .all_namespaces, .rate_per_s, .secret_hash,
                  .created_at, .last_used_at}) AS rows
