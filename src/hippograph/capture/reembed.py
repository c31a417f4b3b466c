"""Give vectors to episodes that were stored while the embedder was failing."""

from __future__ import annotations

import logging

from hippograph.embedding import Embedder
from hippograph.store import Store
from hippograph.store.rows import EPISODES_PENDING_EMBEDDING

__all__ = ["reembed_pending"]

log = logging.getLogger(__name__)


def reembed_pending(store: Store, embedder: Embedder, batch: int = 256) -> int:
    """Embed up to ``batch`` pending episodes; returns how many now have vectors."""
    rows = store.read(EPISODES_PENDING_EMBEDDING, limit=batch)
    if not rows:
        return 0
    vectors = embedder.embed([row["content"] for row in rows])
    updates = [{"id": row["id"], "embedding": vector} for row, vector in zip(rows, vectors)]
    store.write(lambda tx: tx.run("set_episode_embeddings", rows=updates))
    log.info("re-embedded %d episodes", len(updates))
    return len(updates)
