"""Secrets of the store as a whole, shared by every process that opens it: made once, in the
store, by whichever process asks first, and kept in memory after the first read (they never
change). Nothing serves them: no GraphQL field, no export, no dump reads the label."""

from __future__ import annotations

import secrets
import threading
import weakref
from datetime import UTC, datetime

from hippograph.store.rows import STORE_SECRET
from hippograph.store.store import Store, UniquenessConflict

__all__ = ["store_secret"]

_known: weakref.WeakKeyDictionary[Store, dict[str, bytes]] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def store_secret(store: Store, name: str) -> bytes:
    """The store's secret called ``name``, made now if it has none."""
    with _lock:
        known = _known.setdefault(store, {})
        if name not in known:
            known[name] = _read_or_make(store, name)
        return known[name]


def _read_or_make(store: Store, name: str) -> bytes:
    def merge() -> str:
        rows = store.write(
            lambda tx: tx.run(STORE_SECRET, id=name, candidate=secrets.token_urlsafe(32), now=datetime.now(UTC))
        )
        return str(rows[0]["value"])

    try:
        value = merge()
    except UniquenessConflict:  # another process made it at the same moment: read theirs
        value = merge()
    return value.encode("utf-8")
