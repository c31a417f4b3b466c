// A fact a client stated directly (remember): no episode supports it, no entity is derived.
CREATE (f:Fact)
SET f = $props
RETURN f.id AS id
