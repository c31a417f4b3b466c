"""The ONNX encoder's export, kept on disk: found again by what it was built from, never trusted damaged."""

from __future__ import annotations

from pathlib import Path

import pytest

from hippograph.embedding import DEFAULT_SPEC, FLOAT32_256, MiniLMEmbedder, onnx_cache
from hippograph.embedding.onnx_encoder import PROBES, ExportedEncoder

EXPORT = ExportedEncoder(
    graph=b"graph bytes", tokenizer="{}", max_length=256, probe_vectors=((1.0, 0.0),) * len(PROBES)
)


def test_an_entry_reads_back_as_written(tmp_path: Path) -> None:
    onnx_cache.write(tmp_path, "a" * 64, EXPORT)
    assert onnx_cache.read(tmp_path, "a" * 64) == EXPORT
    assert onnx_cache.read(tmp_path, "b" * 64) is None
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary file left behind


def test_a_damaged_entry_is_ignored(tmp_path: Path) -> None:
    onnx_cache.write(tmp_path, "a" * 64, EXPORT)
    [graph] = tmp_path.glob("*.onnx")
    graph.write_bytes(b"graph bytez")
    assert onnx_cache.read(tmp_path, "a" * 64) is None
    [record] = tmp_path.glob("*.json")
    record.write_text("{not json", encoding="utf-8")
    assert onnx_cache.read(tmp_path, "a" * 64) is None


def test_the_key_follows_every_model_file(tmp_path: Path) -> None:
    (tmp_path / "pooling").mkdir()
    (tmp_path / "model.safetensors").write_bytes(b"weights")
    (tmp_path / "pooling" / "config.json").write_text("{}", encoding="utf-8")
    first = onnx_cache.key(tmp_path, DEFAULT_SPEC)
    assert onnx_cache.key(tmp_path, DEFAULT_SPEC) == first
    assert onnx_cache.key(tmp_path, FLOAT32_256) != first  # another spec, another graph
    (tmp_path / "pooling" / "config.json").write_text('{"mean": true}', encoding="utf-8")
    assert onnx_cache.key(tmp_path, DEFAULT_SPEC) != first


@pytest.mark.slow
def test_a_cached_export_serves_queries_without_torch(tmp_path: Path) -> None:
    exporter = MiniLMEmbedder(cache_dir=tmp_path)
    assert exporter.onnx_active
    assert list(tmp_path.glob("*.onnx"))

    reader = MiniLMEmbedder(cache_dir=tmp_path)
    assert reader.embed_query(PROBES[1]) == exporter.embed_query(PROBES[1])
    assert reader.onnx_active
    assert not reader.torch_loaded  # the batch model (torch) was never loaded to answer the query
