"""What every layer shares, and which depends on nothing else of Hippograph. Two halves, kept
apart by a contract (pyproject.toml): the domain (the model, errors, validation, rules, text
cleaning, memory filters, identity keys, retention, the Lucene query builder) and the
infrastructure (metrics, priorities, timing, the event bus); both read configuration and
resources."""
