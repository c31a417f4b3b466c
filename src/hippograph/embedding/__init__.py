"""Sentence embeddings: MiniLM on ONNX Runtime (or torch), loaded when first used."""

from hippograph.embedding.embedder import DIMENSIONS, Embedder, MiniLMEmbedder, Vector, embed_or_none

__all__ = ["DIMENSIONS", "Embedder", "MiniLMEmbedder", "Vector", "embed_or_none"]
