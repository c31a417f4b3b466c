"""Sentence embeddings: MiniLM on ONNX Runtime (or torch), loaded when first used."""

from hippograph.embedding.embedder import DIMENSIONS, Embedder, MiniLMEmbedder, Vector, embed_or_none
from hippograph.embedding.onnx_encoder import DEFAULT_SPEC, FLOAT32_256, EncoderSpec

__all__ = [
    "DEFAULT_SPEC",
    "DIMENSIONS",
    "FLOAT32_256",
    "Embedder",
    "EncoderSpec",
    "MiniLMEmbedder",
    "Vector",
    "embed_or_none",
]
