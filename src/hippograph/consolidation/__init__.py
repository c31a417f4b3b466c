"""Consolidation: lease raw episodes, extract, resolve entities, commit the derived graph."""
