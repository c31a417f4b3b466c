"""What every layer shares, and which depends on nothing else of Hippograph: configuration, errors,
the domain model, validation, text cleaning, identity keys, the event bus, retention, the Lucene
query builder, resources and rules, timing and metrics."""
