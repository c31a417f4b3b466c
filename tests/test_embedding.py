"""A recall query is embedded on ONNX Runtime, documents on torch: both must give the same vector,
or the vector channel would compare a question with memories in two different spaces."""

from __future__ import annotations

import numpy as np

from hippograph.embedding import MiniLMEmbedder
from hippograph.runtime import Runtime

TEXTS = [
    "pottery",
    "When did Melanie paint a sunrise?",
    "  Surrounded by spaces and a newline\n",
    "Qu'a fait Zoë à Zürich — et pourquoi 日本語?",
    # Longer than the model's 256 tokens: both paths must truncate the same way.
    " ".join(f"word{i}" for i in range(400)),
]


def test_the_runtime_embeds_queries_on_onnx_runtime(runtime: Runtime) -> None:
    assert isinstance(runtime.embedder, MiniLMEmbedder)
    assert runtime.embedder.onnx_queries_active


def test_query_vectors_are_the_document_vectors_of_the_same_text(runtime: Runtime) -> None:
    documents = runtime.embedder.embed(TEXTS)
    for text, document in zip(TEXTS, documents, strict=True):
        query = runtime.embedder.embed_query(text)
        assert len(query) == len(document)
        assert abs(float(np.linalg.norm(query)) - 1.0) < 1e-5
        assert float(np.dot(query, document)) > 0.9999, text
