"""The running service's parts, built once from settings and handed to every service function."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from hippograph.config import Settings
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

    def close(self) -> None:
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
    return Runtime(settings, store, embedder, extractor)
