// A namespace's promotion policy (docs/memory-management.md, Promotion and demotion), and how many
// of its facts have a current copy in another namespace. Nulls: the policy was never set.
OPTIONAL MATCH (n:Namespace {name: $namespace})
OPTIONAL MATCH (c:Fact)
WHERE c.promoted_from_namespace = $namespace AND c.status = 'active'
RETURN n.promotion AS enabled, n.promotion_quorum AS quorum, n.promotion_threshold AS threshold,
       n.promotion_prior_successes AS prior_successes, n.promotion_prior_failures AS prior_failures,
       count(c) AS promoted
