// Set a namespace's promotion policy. The record may not exist yet: the policy can be set before
// the first capture.
MERGE (n:Namespace {name: $namespace})
ON CREATE SET n.episodes = 0
SET n.promotion = $enabled, n.promotion_quorum = $quorum, n.promotion_threshold = $threshold,
    n.promotion_prior_successes = $prior_successes, n.promotion_prior_failures = $prior_failures
RETURN n.name AS name
