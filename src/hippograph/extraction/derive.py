"""The part of consolidation that needs no store: extraction and fact-statement embeddings.

spaCy's rules hold Python's interpreter lock, so a thread cannot run them beside the store work;
worker processes can. With ``consolidation_processes`` > 0 they derive the next batches while this
process resolves and commits the current one (each loads its own spaCy pipeline and MiniLM, a few
seconds and a few hundred MB, on the first batch). Episodes are only text here: nothing in this
module reads or writes the graph, so a worker that dies loses no state, only its batch, which goes
back to raw like any failed derivation.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.connection import wait
from pathlib import Path
from typing import TypeVar

from hippograph.embedding import DEFAULT_SPEC, Embedder, EncoderSpec, MiniLMEmbedder, Vector
from hippograph.extraction.lazy import TextExtractor, keep_torch_out_of_thinc
from hippograph.extraction.model import Extraction, Turn

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True)
class Derived:
    """What one episode's text yields before the graph is consulted."""

    extraction: Extraction
    statement_vectors: tuple[Vector | None, ...]  # one per fact candidate; None: keyword-only


def derive_texts(extractor: TextExtractor, embedder: Embedder, turns: Sequence[Turn]) -> list[Derived]:
    extractions = extractor.extract_many(turns)
    return [Derived(e, v) for e, v in zip(extractions, _statement_vectors(embedder, extractions), strict=True)]


def derive_now(extractor: TextExtractor, embedder: Embedder, turns: Sequence[Turn]) -> Future[list[Derived]]:
    """``derive_texts`` in this process, as an already settled future."""
    future: Future[list[Derived]] = Future()
    try:
        future.set_result(derive_texts(extractor, embedder, turns))
    except Exception as error:  # noqa: BLE001 - raised to the reader, as a worker process's would be
        future.set_exception(error)
    return future


class DerivePool:
    """Worker processes that run ``derive_texts``; started on the first batch, and again after
    one of them died (the executor is unusable then). Drains run on several threads at once (the
    background worker, a consolidate mutation), so the executor is made and replaced under a lock:
    otherwise two could each make one and one would leak, processes and all."""

    def __init__(
        self,
        processes: int,
        embedding_batch_size: int,
        torch_threads: int,
        niceness: int = 0,
        model_cache_dir: Path | None = None,
        spec: EncoderSpec = DEFAULT_SPEC,
    ) -> None:
        self.processes = processes
        # The workers embed fact statements as the store's other vectors were (store_record.py).
        self._initargs = (embedding_batch_size, torch_threads, niceness, model_cache_dir, spec)
        self._executor: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._ready = threading.Event()

    @property
    def loaded(self) -> bool:
        """Whether a worker process has its models loaded."""
        return self._ready.is_set()

    def warm_up(self) -> bool:
        """``loaded``; if not, start the workers unless they are on the way. Until they are, a
        drain derives in its own process: the first consolidation after start-up does not wait
        the seconds (tens, on a busy machine) that loading spaCy and MiniLM takes."""
        if not self._ready.is_set():
            self._pool()
        return self._ready.is_set()

    def submit(self, turns: Sequence[Turn]) -> Future[list[Derived]]:
        return self.call(_derive_in_worker, list(turns))

    def call(self, fn: Callable[..., T], *args: object) -> Future[T]:
        """``fn(*args)`` in one of the worker processes (``fn`` pickled by name: a module's
        function), which start first if none runs, and again if they died. What a worker process
        is (its pid, its priority) is asked this way too."""
        executor = self._pool()
        try:
            return executor.submit(fn, *args)
        except BrokenProcessPool:
            log.warning("a consolidation worker process died; starting new ones")
            return self._pool(replacing=executor).submit(fn, *args)

    def close(self) -> None:
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)

    def _pool(self, replacing: ProcessPoolExecutor | None = None) -> ProcessPoolExecutor:
        """The executor; a new one if there is none or if ``replacing`` broke. Two threads that
        both saw it break replace it once: the second finds the first one's replacement."""
        with self._lock:
            broken = replacing is not None and self._executor is replacing
            if broken:
                assert replacing is not None
                replacing.shutdown(wait=False, cancel_futures=True)
            if self._executor is None or broken:
                # Spawned, never forked: this process runs the JVM and torch's threads.
                self._ready.clear()
                self._executor = ProcessPoolExecutor(
                    self.processes,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_load_models,
                    initargs=self._initargs,
                )
                self._executor.submit(_loaded).add_done_callback(self._warmed)
            return self._executor

    def _warmed(self, future: Future[bool]) -> None:
        if not future.cancelled() and future.exception() is None:
            self._ready.set()


def _statement_vectors(embedder: Embedder, extractions: list[Extraction]) -> list[tuple[Vector | None, ...]]:
    """Fact statements embedded in one call; without vectors the facts stay keyword-searchable."""
    statements = [fact.statement for extraction in extractions for fact in extraction.facts]
    try:
        flat: list[Vector | None] = list(embedder.embed(statements))
    except Exception:
        log.exception("embedding %d fact statements failed; storing them without vectors", len(statements))
        flat = [None] * len(statements)
    out, start = [], 0
    for extraction in extractions:
        out.append(tuple(flat[start : start + len(extraction.facts)]))
        start += len(extraction.facts)
    return out


# A worker process's models, loaded once by the pool's initializer.
_models: tuple[TextExtractor, MiniLMEmbedder] | None = None


def _load_models(
    embedding_batch_size: int, torch_threads: int, niceness: int, model_cache_dir: Path | None, spec: EncoderSpec
) -> None:
    global _models
    keep_torch_out_of_thinc()
    from hippograph.extraction.pipeline import Extractor  # spaCy: only the workers load it here

    threading.Thread(target=_exit_with_parent, name="parent-watch", daemon=True).start()
    lower_priority(niceness)
    # The ONNX encoder, from the cache the server keeps it in: torch's vectors (tests/test_embedding.py)
    # without torch in memory, which loads only to export the graph when the cache lacks it
    # (docs/benchmarks.md, "What serve holds in memory").
    embedder = MiniLMEmbedder(
        embedding_batch_size, torch_threads, query_cache_size=1, cache_dir=model_cache_dir, spec=spec
    )
    embedder.warm_up()
    _models = (Extractor(), embedder)


def lower_priority(niceness: int) -> None:
    """Add ``niceness`` to this process's: on a machine with few cores the workers' extraction
    would otherwise take CPU time from requests as an equal. Consolidation is background work and
    may lag."""
    if niceness <= 0:
        return
    try:
        os.nice(niceness)
    except OSError:  # not permitted here (a sandbox): the worker runs at normal priority
        log.info("could not lower the consolidation worker's priority", exc_info=True)


def _exit_with_parent() -> None:
    """A worker waits for tasks on a queue it holds both ends of, so a parent killed outright
    (a crash, SIGKILL) would leave it waiting forever."""
    parent = multiprocessing.parent_process()
    if parent is not None:
        wait([parent.sentinel])
        os._exit(1)


def _loaded() -> bool:
    """A first task, answered once a worker's initializer has loaded its models."""
    return _models is not None


def _derive_in_worker(turns: list[Turn]) -> list[Derived]:
    assert _models is not None, "the pool's initializer loads the models"
    return derive_texts(*_models, turns)
