"""The running service's parts, built once from settings and handed to every service function."""

from __future__ import annotations

import gc
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Protocol, runtime_checkable

from hippograph.embedding import Embedder, EncoderSpec, MiniLMEmbedder, onnx_cache
from hippograph.embedding.store_record import store_spec
from hippograph.extraction.derive import DerivePool
from hippograph.extraction.lazy import LazyExtractor, TextExtractor, keep_torch_out_of_thinc
from hippograph.extraction.question_process import QuestionProcess
from hippograph.kernel.config import Settings
from hippograph.kernel.priority import PriorityGate, RequestGauge
from hippograph.store import Store, open_store
from hippograph.store.access import AccessLog

log = logging.getLogger(__name__)


def utc_now() -> datetime:
    return datetime.now(UTC)


def _query_threads() -> ThreadPoolExecutor:
    # Three per recall in flight (the names, the embedding, the time window); more would only
    # queue on two cores.
    return ThreadPoolExecutor(max_workers=6, thread_name_prefix="recall-query")


@runtime_checkable
class Warm(Protocol):
    def warm_up(self) -> None:
        """Load now what would otherwise load on first use."""
        ...


@dataclass
class Runtime:
    settings: Settings
    store: Store
    # Both load their models when first used (seconds each), not when the store opens: most
    # commands never need them, and serve loads them in the background once it listens.
    embedder: Embedder
    extractor: TextExtractor
    # Recalls' access counts, written after each recall has answered.
    access: AccessLog
    clock: Callable[[], datetime] = field(default=utc_now)
    # Client requests in flight: serve's background consolidation pauses while there are any.
    requests: RequestGauge = field(default_factory=RequestGauge)
    # Processes that extract and embed for consolidation; None: it all runs in this one.
    derive_pool: DerivePool | None = None
    # Threads that run a recall's vector channel and read its query's names while its keyword search
    # runs. They outlive the recall: threads started per recall wait for the GIL to hand them their
    # first turn (docs/benchmarks.md).
    query_threads: ThreadPoolExecutor = field(default_factory=_query_threads)
    # Set once warm_up has loaded every model: from then on no request waits for one.
    models_loaded: threading.Event = field(default_factory=threading.Event)

    def warm_up(self) -> None:
        """Load the models now rather than in the first request that needs them: the extractor
        and the embedder (ONNX Runtime, or torch when that is off or its export failed)."""
        for part in (self.extractor, self.embedder):
            if isinstance(part, Warm):
                part.warm_up()
        self.models_loaded.set()

    def start_question_process(self) -> None:
        """Start the process that reads recall's questions, when the settings ask for one: a
        server does once its models have loaded. A program that opens a runtime and never calls
        this reads them in its own process."""
        if isinstance(self.extractor, QuestionProcess):
            self.extractor.start()

    def close(self) -> None:
        self.query_threads.shutdown(cancel_futures=True)
        if isinstance(self.extractor, QuestionProcess):
            self.extractor.close()
        self.access.close()
        if self.derive_pool is not None:
            self.derive_pool.close()
        self.store.close()


def open_runtime(settings: Settings) -> Runtime:
    """Connect (or start the embedded engine) and set the schema up; the models load on first use."""
    store = open_store(settings)
    try:
        store.setup_schema()
        spec = store_spec(store, EncoderSpec.of(settings.models))
    except Exception:
        store.close()
        raise
    model_cache_dir = settings.models.model_cache_dir or onnx_cache.default_dir()
    embedder = MiniLMEmbedder(
        settings.models.embedding_batch_size,
        settings.models.torch_threads,
        settings.models.query_cache_size,
        cache_dir=model_cache_dir,
        on_load=_freeze_loaded_objects,
        gate=PriorityGate("model", settings.models.embedding_concurrency, settings.server.priority_max_wait_s),
        pass_niceness=settings.models.embedding_niceness,
        spec=spec,
    )
    local = LazyExtractor(on_load=_freeze_loaded_objects)
    extractor = QuestionProcess(local) if settings.models.question_process else local
    pool = None
    if settings.consolidation.processes > 0:
        pool = DerivePool(
            settings.consolidation.processes,
            settings.models.embedding_batch_size,
            settings.models.torch_threads,
            settings.consolidation.niceness,
            model_cache_dir,
            spec,
        )
    return Runtime(settings, store, embedder, extractor, AccessLog(store), derive_pool=pool)


def warm_up_in_background(runtime: Runtime) -> None:
    """Load the models beside whatever serves (seconds): it answers at once, and a request that
    needs a model first waits for it. Then start the question process (a server's).

    thinc is loaded without torch here, before any thread starts: while it loads, torch is hidden,
    and a thread importing torch then (a capture exporting the encoder) would fail."""
    keep_torch_out_of_thinc()
    threading.Thread(target=_warm_up, args=(runtime,), name="warm-up", daemon=True).start()


def _warm_up(runtime: Runtime) -> None:
    try:
        runtime.warm_up()
        runtime.start_question_process()
    except Exception:
        log.warning("loading the models failed; the requests that need them retry", exc_info=True)


def _freeze_loaded_objects() -> None:
    """Exempt everything loaded so far (models, libraries) from Python's cyclic collector; run
    after each model loads.

    A full collection scans every object the collector tracks while it holds the GIL. Over the
    models' millions of objects each one stalled whatever request was running, which set recall's
    p95 (docs/benchmarks.md). Frozen objects are never scanned again, and they live as long as the
    process anyway.
    """
    gc.collect()
    gc.freeze()
