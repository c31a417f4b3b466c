"""The export file: JSON Lines, one header, node records, relationship records, one end record.

    {"format": "hippograph-export", "version": 1, "namespaces": ["ns"], "exported_at": "...",
     "embedding": "all-MiniLM-L6-v2/int8/128", ...}
    {"node": "Episode", "properties": {"id": "01J...", "namespace": "ns", "embedding": {"$float32": "..."}, ...}}
    {"relationship": "MENTIONS", "start": ["Episode", "01J..."], "end": ["Entity", "01J..."], "properties": {...}}
    {"end": {"nodes": 1234, "relationships": 5678}}

Every node and relationship keeps every stored property, so a restored namespace is the one that
was exported: ids, versions, bi-temporal fields, access counts, embeddings. JSON has no datetime
and spells a float vector in ~20 characters a number, so two values are tagged objects (a stored
property is never a map, so an object is always a tag): ``{"$datetime": ISO-8601}`` and
``{"$float32": base64 of little-endian float32}`` for a list of floats that float32 holds exactly
(embeddings: the model computes them in float32).

The header names the embedding the vectors were made with (the exporting store's record,
embedding/store_record.py), since vectors of two embeddings do not compare: an import into a
store whose vectors another embedding made is refused. A file without it was written before the
record, when every vector was made with float32 weights cutting at 256 tokens, and restore.py
reads it so.
"""

from __future__ import annotations

import base64
import gzip
import json
import math
import re
import sys
from array import array
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from hippograph.extraction.vocabulary import relation_types
from hippograph.store.namespaces import NAMESPACE_LABEL

__all__ = [
    "FORMAT",
    "STORE_LABELS",
    "STRUCTURAL_TYPES",
    "VERSION",
    "RecordError",
    "decode_properties",
    "encode_properties",
    "header",
    "is_export",
    "key_property",
    "namespace_of",
    "open_text",
    "relationship_types",
]

FORMAT = "hippograph-export"
VERSION = 1

# Labels of the store as a whole, which belong to no namespace and are not exported: API keys
# (their secrets' hashes stay with the store that issued them), the record of data migrations and
# of the embedding its vectors were made with, and
# the store's own secrets (the confirm-token key), the change record memoryEvents reads (each
# namespace's stream, its counter; kept for a while, then swept), and the request budgets and
# failed-authentication counts every server shares.
STORE_LABELS: tuple[str, ...] = (
    "ApiKey",
    "Migration",
    "EmbeddingModel",
    "Secret",
    "ChangeStream",
    "Change",
    "RateBudget",
    "AuthFailures",
)
# Relationship types beside the closed vocabulary of typed entity edges (extract/relation_types.toml).
STRUCTURAL_TYPES: tuple[str, ...] = (
    "IN_SESSION",
    "NEXT",
    "SUPPORTED_BY",
    "MENTIONS",
    "MENTIONS_CONCEPT",
    "ABOUT",
    "CO_OCCURS",
    "SUPERSEDES",
    "CONTRADICTS",
    "ALIAS_OF",
    "EXTENDS",
    "PREVIOUS_VERSION",
    "BAD_PATTERN_OF",
    "CHILD_OF",
    "SUMMARIZES",
    "PROMOTED_TO",
)

_DATETIME = "$datetime"
_FLOAT32 = "$float32"
# Shorter lists of floats stay plain JSON: the tag only pays for itself on vectors.
_MIN_VECTOR = 8
_PROPERTY_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,39}$")


class RecordError(ValueError):
    """A record or value that is not what the format allows; the message never quotes a value."""


def relationship_types() -> frozenset[str]:
    return frozenset(STRUCTURAL_TYPES) | frozenset(relation_types())


def key_property(label: str) -> str:
    return "name" if label == NAMESPACE_LABEL else "id"


def namespace_of(label: str, properties: dict[str, Any]) -> Any:
    return properties.get(key_property(label) if label == NAMESPACE_LABEL else "namespace")


def header(namespaces: Iterable[str], exported_at: datetime, version: str, embedding: str) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "namespaces": list(namespaces),
        "exported_at": exported_at.isoformat(),
        "hippograph": version,
        "embedding": embedding,
    }


# The numbers and versions a store gives its writes of vectors and graphs, for the processes that
# keep copies of them (store/vector_stamps.py, store/graph_stamps.py): meaningless to another
# store, which gives what it imports its own.
_STORE_LOCAL = frozenset({"vector_seq", "vector_epoch", "graph_version"})


def encode_properties(properties: dict[str, Any]) -> dict[str, Any]:
    """By name: a server returns a node's properties in the order it stores them, which on Neo4j
    is the order they were written in, so a store and its copy would export different lines."""
    return {name: _encode(name, properties[name]) for name in sorted(properties) if name not in _STORE_LOCAL}


def decode_properties(properties: Any) -> dict[str, Any]:
    if not isinstance(properties, dict):
        raise RecordError("properties must be an object")
    return {name: _decode(name, value) for name, value in properties.items()}


def property_name(name: str) -> str:
    """A property's name as an error message may show it: ours are short snake_case words; any
    other name in a file is not echoed, since a file may hold anything."""
    return f"property {name!r}" if _PROPERTY_NAME.match(name) else "a property"


def _encode(name: str, value: Any) -> Any:
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        return _finite(name, value)
    if isinstance(value, datetime):
        return {_DATETIME: value.astimezone(UTC).isoformat()}
    if isinstance(value, list):
        if len(value) >= _MIN_VECTOR and all(type(item) is float for item in value):
            packed = array("f", value)
            if list(packed) == value:
                if sys.byteorder == "big":
                    packed.byteswap()
                return {_FLOAT32: base64.b64encode(packed.tobytes()).decode("ascii")}
        return [_encode(name, item) for item in value]
    raise RecordError(f"{property_name(name)} holds a {type(value).__name__}, which the export format has no form for")


def _decode(name: str, value: Any) -> Any:
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        return _finite(name, value)
    if isinstance(value, list):
        if all(type(item) is float for item in value):  # a vector float32 does not hold exactly
            return _all_finite(name, value)
        items = [_decode(name, item) for item in value]
        if any(isinstance(item, list) for item in items):
            raise RecordError(f"{property_name(name)} is a list of lists")
        return items
    if isinstance(value, dict) and len(value) == 1:
        [(tag, text)] = value.items()
        if tag == _DATETIME and isinstance(text, str):
            try:
                moment = datetime.fromisoformat(text)
            except ValueError:
                raise RecordError(f"{property_name(name)} is not an ISO-8601 time") from None
            if moment.tzinfo is None:
                raise RecordError(f"{property_name(name)} is a time without a zone")
            return moment.astimezone(UTC)
        if tag == _FLOAT32 and isinstance(text, str):
            try:
                raw = base64.b64decode(text, validate=True)
            except ValueError:
                raise RecordError(f"{property_name(name)} is not base64") from None
            if len(raw) % 4:
                raise RecordError(f"{property_name(name)} is not a whole number of float32 values")
            packed = array("f", raw)
            if sys.byteorder == "big":
                packed.byteswap()
            return _all_finite(name, packed.tolist())
    raise RecordError(f"{property_name(name)} is an object, and only a tagged time or vector may be one")


def _all_finite(name: str, values: list[float]) -> list[float]:
    # A sum is finite when every term is, unless finite terms overflow it: only then look at each.
    if not math.isfinite(sum(values)):
        for value in values:
            _finite(name, value)
    return values


def _finite(name: str, value: float) -> float:
    if not math.isfinite(value):
        raise RecordError(f"{property_name(name)} is not a finite number")
    return value


def open_text(path: Path, mode: str = "r") -> IO[str]:
    """A file of the format, gzip-compressed when its name ends in .gz (writing) or it starts
    with gzip's magic bytes (reading)."""
    if mode == "r":
        with path.open("rb") as probe:
            compressed = probe.read(2) == b"\x1f\x8b"
    else:
        compressed = path.name.endswith(".gz")
    if not compressed:
        return path.open(mode, encoding="utf-8", newline="\n")
    if mode == "r":
        return gzip.open(path, "rt", encoding="utf-8", newline="\n")
    return gzip.open(path, "wt", encoding="utf-8", newline="\n")


def is_export(path: Path) -> bool:
    """Whether a file starts with this format's header (else it is capture lines)."""
    with open_text(path) as stream:
        try:
            first_line = next((line for line in stream if line.strip()), "")
        except UnicodeDecodeError:  # no text at all: the capture reader says so
            return False
    try:
        first = json.loads(first_line)
    except ValueError:
        return False
    return isinstance(first, dict) and first.get("format") == FORMAT
