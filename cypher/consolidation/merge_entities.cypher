// The entities a batch of episodes names: existing ones are found by their key, new ones are
// minted. The earliest mention (by episode time, then x.order) names the entity and sets
// first_seen_at, whichever episode was consolidated first; replaying an episode changes nothing. An
// entity known only as 'other' takes the type a typed mention gives it, unless that key is taken.
// type_votes counts the mentions' types among $vote_types, weighted (consolidation/types.py); an
// entity from before the vote starts with its mentions counted for its own type.
UNWIND $entities AS x
MERGE (en:Entity {namespace: x.namespace, type: x.type, canonical: x.canonical})
  ON CREATE SET en.id = x.id, en.namespace_token = x.namespace_token, en.aliases = [], en.mention_count = 0,
                en.attributes = '{}'
// Each item sees the ones before it: the name goes before first_seen_at and named_by change.
SET en.name = CASE WHEN en.first_seen_at IS NULL OR x.at < en.first_seen_at
                        OR (x.at = en.first_seen_at AND x.order < coalesce(en.named_by, '')) THEN x.name ELSE en.name END,
    en.embedding = CASE WHEN en.name = x.name AND x.embedding IS NOT NULL AND (en.first_seen_at IS NULL OR x.at < en.first_seen_at
                        OR (x.at = en.first_seen_at AND x.order < coalesce(en.named_by, ''))) THEN x.embedding ELSE en.embedding END,
    en.named_by = CASE WHEN en.first_seen_at IS NULL OR x.at < en.first_seen_at
                        OR (x.at = en.first_seen_at AND x.order < coalesce(en.named_by, '')) THEN x.order ELSE en.named_by END,
    en.first_seen_at = CASE WHEN en.first_seen_at IS NULL OR x.at < en.first_seen_at THEN x.at ELSE en.first_seen_at END,
    en.last_seen_at = CASE WHEN en.last_seen_at IS NULL OR x.at > en.last_seen_at THEN x.at ELSE en.last_seen_at END,
    en.type_votes = [i IN range(0, size($vote_types) - 1) |
      coalesce(en.type_votes[i], CASE WHEN $vote_types[i] = en.type THEN coalesce(en.mention_count, 0) ELSE 0 END)
      + CASE WHEN x.vote = $vote_types[i] THEN x.weight ELSE 0 END],
    en.type = CASE
      WHEN en.type = 'other' AND x.refine IS NOT NULL
           AND NOT EXISTS { MATCH (:Entity {namespace: x.namespace, type: x.refine, canonical: en.canonical}) }
      THEN x.refine
      ELSE en.type
    END
RETURN x.ref AS ref, en.id AS id, en.type AS type, en.type_votes AS votes
