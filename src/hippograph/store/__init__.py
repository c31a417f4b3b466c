"""The graph store: one code path over the neo4j driver, for Neo4j and for embedded ArcadeDB."""

from hippograph.store.connect import open_store
from hippograph.store.store import Row, Store, Transaction, UniquenessConflict

__all__ = ["Row", "Store", "Transaction", "UniquenessConflict", "open_store"]
