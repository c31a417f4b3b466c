"""The running service's parts, built once from settings and handed to every service function."""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
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


def _query_threads() -> ThreadPoolExecutor:
    # Two per recall in flight; more would only queue on two cores.
    return ThreadPoolExecutor(max_workers=4, thread_name_prefix="recall-query")


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
    # Threads that analyse a recall's query (embedding, names) while its keyword search runs. They
    # outlive the recall: starting two threads per recall waited ~1.5 ms for the GIL to hand them
    # their first turn (docs/benchmarks.md).
    query_threads: ThreadPoolExecutor = field(default_factory=_query_threads)

    def close(self) -> None:
        self.query_threads.shutdown(cancel_futures=True)
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
