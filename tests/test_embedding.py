"""Queries, batches and the consolidation workers' statements are embedded on ONNX Runtime; torch
only exports the graph: every path must give torch's vector (to the digit in float32, to ~0.99
with int8 weights), or the vector channel would compare a question with memories in two
different spaces."""

from __future__ import annotations

import numpy as np
import pytest

from hippograph.embedding import FLOAT32_256, MiniLMEmbedder, onnx_cache
from hippograph.extraction.derive import DerivePool
from hippograph.extraction.model import Turn
from hippograph.runtime import Runtime

TEXTS = [
    "pottery",
    "When did Melanie paint a sunrise?",
    "  Surrounded by spaces and a newline\n",
    "Qu'a fait Zoë à Zürich — et pourquoi 日本語?",
    # Longer than the model reads (128 or 256 tokens): both paths must truncate the same way.
    " ".join(f"word{i}" for i in range(400)),
    # Long enough to be tokenized from a prefix (OnnxEncoder._head), then cut where all of it is.
    " ".join(f"lighthouse{i % 7} keeper, walked" for i in range(3000)),
    *(f"Caroline: I went to the {'really ' * n}lovely support group yesterday, it was great!" for n in range(12)),
]


@pytest.fixture(scope="module")
def torch_embedder(runtime: Runtime) -> MiniLMEmbedder:
    """torch's float32 vectors, cut where the runtime's embedder cuts."""
    assert isinstance(runtime.embedder, MiniLMEmbedder)
    return MiniLMEmbedder(query_cache_size=1, onnx=False, spec=runtime.embedder.spec)


def test_the_runtime_embeds_on_onnx_runtime(runtime: Runtime) -> None:
    assert isinstance(runtime.embedder, MiniLMEmbedder)
    assert runtime.embedder.onnx_active


# Loads MiniLM on torch (tens of seconds of CPU), as the consolidation worker's check below does.
@pytest.mark.slow
def test_a_batch_on_onnx_runtime_gives_torchs_vectors(runtime: Runtime, torch_embedder: MiniLMEmbedder) -> None:
    assert len(TEXTS) > runtime.settings.models.embedding_batch_size  # several passes, each padded
    onnx = runtime.embedder.embed(TEXTS)
    reference = torch_embedder.embed(TEXTS)
    assert len(onnx) == len(reference) == len(TEXTS)
    assert isinstance(runtime.embedder, MiniLMEmbedder)
    for text, ours, theirs in zip(TEXTS, onnx, reference, strict=True):
        assert len(ours) == len(theirs)
        assert float(np.dot(ours, theirs)) > runtime.embedder.spec.min_probe_cosine, text


# Loads MiniLM on torch as the reference, as the two checks beside it do (tens of seconds of CPU).
@pytest.mark.slow
def test_a_float32_encoder_gives_torchs_vectors_to_the_digit() -> None:
    onnx = MiniLMEmbedder(query_cache_size=1, cache_dir=onnx_cache.default_dir(), spec=FLOAT32_256)
    assert onnx.onnx_active
    reference = MiniLMEmbedder(query_cache_size=1, onnx=False, spec=FLOAT32_256).embed(TEXTS)
    for text, ours, theirs in zip(TEXTS, onnx.embed(TEXTS), reference, strict=True):
        assert float(np.dot(ours, theirs)) > 0.9999, text


def test_a_text_gets_the_same_vector_alone_and_anywhere_in_a_batch(runtime: Runtime) -> None:
    forward = runtime.embedder.embed(TEXTS)
    backward = runtime.embedder.embed(TEXTS[::-1])[::-1]
    for text, a, b in zip(TEXTS, forward, backward, strict=True):
        alone = runtime.embedder.embed_query(text)
        assert abs(float(np.linalg.norm(a)) - 1.0) < 1e-5
        assert float(np.dot(a, b)) > 0.99999, text
        assert float(np.dot(a, alone)) > 0.99999, text


@pytest.mark.slow
def test_a_consolidation_worker_embeds_statements_as_torch_does(
    runtime: Runtime, torch_embedder: MiniLMEmbedder
) -> None:
    assert isinstance(runtime.embedder, MiniLMEmbedder)
    pool = DerivePool(1, 8, 1, model_cache_dir=runtime.embedder.cache_dir, spec=runtime.embedder.spec)
    try:
        [derived] = pool.submit([Turn("Caroline moved to Boston in May and works at a pottery studio.")]).result(600)
    finally:
        pool.close()
    statements = [fact.statement for fact in derived.extraction.facts]
    assert statements and len(derived.statement_vectors) == len(statements)
    for statement, ours, theirs in zip(
        statements, derived.statement_vectors, torch_embedder.embed(statements), strict=True
    ):
        assert ours is not None
        assert float(np.dot(ours, theirs)) > runtime.embedder.spec.min_probe_cosine, statement
