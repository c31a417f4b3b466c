"""The running service's parts, built once from settings and handed to every service function."""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from hippograph.config import Settings
from hippograph.consolidation.derive import DerivePool
from hippograph.embedding import Embedder, MiniLMEmbedder
from hippograph.extraction.pipeline import Extractor
from hippograph.lifecycle.events import EventBus
from hippograph.store import Store, open_store

log = logging.getLogger(__name__)


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass
class Runtime:
    settings: Settings
    store: Store
    embedder: Embedder
    extractor: Extractor
    clock: Callable[[], datetime] = field(default=utc_now)
    events: EventBus = field(default_factory=EventBus)
    # Processes that extract and embed for consolidation; None: it all runs in this one.
    derive_pool: DerivePool | None = None

    def close(self) -> None:
        if self.derive_pool is not None:
            self.derive_pool.close()
        self.store.close()


def open_runtime(settings: Settings) -> Runtime:
    """Connect (or start the embedded engine), set the schema up, load the models."""
    store = open_store(settings)
    try:
        store.setup_schema()
        embedder = MiniLMEmbedder(settings.embedding_batch_size, settings.torch_threads, settings.query_cache_size)
        embedder.load()
        extractor = Extractor()
    except Exception:
        store.close()
        raise
    _freeze_loaded_objects()
    pool = None
    if settings.consolidation_processes > 0:
        pool = DerivePool(settings.consolidation_processes, settings.embedding_batch_size, settings.torch_threads)
    return Runtime(settings, store, embedder, extractor, derive_pool=pool)


def _freeze_loaded_objects() -> None:
    """Exempt everything loaded so far (models, libraries) from Python's cyclic collector.

    The embedded engine's bridge (JPype) runs a full ``gc.collect()`` after every collection in the
    JVM, about once a second under load. Over the models' millions of objects each took ~200 ms and
    held the GIL, stalling whatever request was running: that was recall's p95. Frozen objects are
    never scanned again, and they live as long as the process anyway.
    """
    gc.collect()
    gc.freeze()
