"""Generic credential layers: secrets found by the words around them, the name they are assigned to,
their own shape, or what they decode to, without knowing their format. ``kernel.text.scrub`` runs
them after the named formats of ``extract/credentials.toml``."""
