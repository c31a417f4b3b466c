"""The exported ONNX encoder on disk, so that a process exports it once rather than at every start.

An export is only as good as what it was built from, so an entry is named by a key over all of it:
every file of the model directory, the versions of the libraries that load, trace and quantize
the model, the opset, the spec (where texts are cut, int8 or not), and the exporter's own source. A new wheel, library or exporter means a new entry,
never a stale one. Entries are written whole (a temporary file, then a rename) and read back only
if the graph's checksum matches; the caller then checks the probe vectors before trusting it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from importlib import metadata
from pathlib import Path

from hippograph.embedding import onnx_encoder
from hippograph.embedding.onnx_encoder import EncoderSpec, ExportedEncoder

log = logging.getLogger(__name__)

# The libraries whose code shapes the exported graph: they trace and serialize it (torch, onnx),
# define the model's modules (transformers), load its weights and tokenizer (sentence-transformers,
# tokenizers), and quantize it (onnxruntime).
_LIBRARIES = ("torch", "onnx", "transformers", "sentence-transformers", "tokenizers", "onnxruntime")


def default_dir() -> Path:
    """The user's cache directory (XDG), where every data directory and test run can share it."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "hippograph"


def key(model_dir: Path, spec: EncoderSpec) -> str:
    """What an export of the model in ``model_dir`` to ``spec`` depends on, as a hex digest."""
    digest = hashlib.sha256()
    for path in sorted(p for p in model_dir.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(model_dir)).encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    for library in _LIBRARIES:
        digest.update(f"{library}={_version(library)}\0".encode())
    digest.update(f"opset={onnx_encoder.OPSET}\0spec={spec.name}\0".encode())
    digest.update(Path(onnx_encoder.__file__).read_bytes())
    return digest.hexdigest()


def read(cache_dir: Path, entry: str) -> ExportedEncoder | None:
    """The export stored under ``entry``, or None when there is none or it is damaged."""
    graph_path, meta_path = _paths(cache_dir, entry)
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        graph = graph_path.read_bytes()
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        log.warning("ignoring the cached ONNX encoder %s: %s", meta_path, error)
        return None
    try:
        if meta["key"] != entry or meta["graph_sha256"] != hashlib.sha256(graph).hexdigest():
            log.warning("ignoring the cached ONNX encoder %s: its graph does not match its record", graph_path)
            return None
        return ExportedEncoder(
            graph=graph,
            tokenizer=str(meta["tokenizer"]),
            max_length=int(meta["max_length"]),
            probe_vectors=tuple(tuple(float(x) for x in vector) for vector in meta["probe_vectors"]),
        )
    except (KeyError, TypeError, ValueError) as error:
        log.warning("ignoring the cached ONNX encoder %s: %r", meta_path, error)
        return None


def write(cache_dir: Path, entry: str, exported: ExportedEncoder) -> None:
    """Store an export under ``entry``: the graph first, then the record that vouches for it, each
    by rename, so a reader sees a whole entry or none (a concurrent writer writes the same one)."""
    cache_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    graph_path, meta_path = _paths(cache_dir, entry)
    meta = {
        "key": entry,
        "graph_sha256": hashlib.sha256(exported.graph).hexdigest(),
        "tokenizer": exported.tokenizer,
        "max_length": exported.max_length,
        "probe_vectors": [list(vector) for vector in exported.probe_vectors],
    }
    _write_atomically(graph_path, exported.graph)
    _write_atomically(meta_path, json.dumps(meta).encode("utf-8"))
    log.info("ONNX encoder cached at %s", graph_path)


def _paths(cache_dir: Path, entry: str) -> tuple[Path, Path]:
    stem = f"onnx-encoder-{entry[:32]}"
    return cache_dir / f"{stem}.onnx", cache_dir / f"{stem}.json"


def _write_atomically(path: Path, data: bytes) -> None:
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "absent"
