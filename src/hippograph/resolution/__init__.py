"""Which entity a name is: conservative entity resolution and the type vote over an entity's
mentions. Consolidation resolves the names it extracts (and mints the new ones); recall resolves a
query's names the same way, to seed the graph channel."""
