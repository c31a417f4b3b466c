"""Which embedding a store's vectors were made with: recorded in the store, and kept.

Vectors of two embeddings do not compare well (int8 weights move every vector a little, a
128-token cut moves every long text's), so a question must be embedded as the memories it is
compared with were. A new store records the embedding the settings name; a store that holds
vectors and no record is older than the record, and its vectors were all made with float32
weights cutting at 256 tokens. From then on the store keeps its embedding whatever the settings
say: an upgrade never mixes two kinds of vectors in one store, and the settings choose the
embedding of new stores (docs/operations.md). A record this version cannot make (a later
version's) is refused at start-up.

An import (backup/restore.py) brings vectors an export names the embedding of: a store that holds
no vectors adopts it, one that holds vectors of the same embedding keeps its record, and one that
holds another's refuses the file (``on_import``). The decisions are functions of plain values;
``store_spec`` and ``settle_import`` read and write the store around them.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from enum import Enum

from hippograph.embedding.onnx_encoder import FLOAT32_256, EncoderSpec
from hippograph.store import Store, Transaction
from hippograph.store.rows import ADOPT_EMBEDDING_MODEL, ANY_VECTOR, EMBEDDING_MODEL, RECORD_EMBEDDING_MODEL

__all__ = [
    "ImportEmbedding",
    "UnknownEmbedding",
    "at_start",
    "exported_spec",
    "on_import",
    "parse_recorded",
    "settle_import",
    "store_spec",
]

log = logging.getLogger(__name__)

# The labels whose nodes carry a vector (``embedding``).
_VECTOR_LABELS = ("Episode", "Fact", "Entity")


class UnknownEmbedding(Exception):
    """The store's vectors were made by an embedding this version cannot make."""


class ImportEmbedding(Enum):
    """What an import does with the store's record of its embedding."""

    KEEP = "keep"  # the store's vectors and the file's were made with the same embedding
    ADOPT = "adopt"  # the store holds no vectors: it records the file's embedding
    REFUSE = "refuse"  # the store holds vectors of another embedding: nothing is imported


def parse_recorded(name: str) -> EncoderSpec:
    """The embedding a store's record names; UnknownEmbedding for one this version cannot make."""
    try:
        return EncoderSpec.parse(name)
    except ValueError:
        raise UnknownEmbedding(
            f"this store's vectors were made with the embedding {name!r}, which this version of "
            "Hippograph cannot make: run the version that wrote them"
        ) from None


def at_start(recorded: EncoderSpec | None, holds_vectors: bool, configured: EncoderSpec) -> EncoderSpec:
    """The embedding a store is opened with: its record's; without one, float32/256 when it holds
    vectors (they were made before the record), else the settings' (a new store)."""
    if recorded is not None:
        return recorded
    return FLOAT32_256 if holds_vectors else configured


def on_import(recorded: EncoderSpec | None, holds_vectors: bool, exported: EncoderSpec) -> ImportEmbedding:
    """Whether a store takes vectors the file says ``exported`` made (``recorded``: the store's
    record, None if it has none)."""
    if not holds_vectors:
        return ImportEmbedding.KEEP if recorded == exported else ImportEmbedding.ADOPT
    return ImportEmbedding.KEEP if at_start(recorded, True, exported) == exported else ImportEmbedding.REFUSE


def store_spec(store: Store, configured: EncoderSpec) -> EncoderSpec:
    """The embedding ``store``'s vectors are made with, recorded now if it had no record."""
    recorded = _recorded(store)
    if recorded is None:
        first = at_start(None, _holds_vectors(store), configured)
        # Two servers opening one new store record one of theirs; both read back the same.
        rows = store.write(lambda tx: tx.run(RECORD_EMBEDDING_MODEL, model=first.name, at=datetime.now(UTC)))
        recorded = parse_recorded(str(rows[0]["name"]))
        log.info("store: vectors are made with %s", recorded.name)
    if recorded != configured:
        log.warning(
            "store: its vectors were made with %s, so it keeps embedding with that; the settings' %s "
            "(HIPPOGRAPH_EMBEDDING_MAX_TOKENS, HIPPOGRAPH_EMBEDDING_INT8) apply to new stores",
            recorded.name,
            configured.name,
        )
    return recorded


def exported_spec(store: Store) -> EncoderSpec:
    """The embedding an export of ``store`` names: its record's; a store without one has not been
    opened by a server since the record came, so whatever vectors it holds are float32/256."""
    recorded = _recorded(store)
    return FLOAT32_256 if recorded is None else recorded


def settle_import(store: Store, exported: EncoderSpec) -> tuple[ImportEmbedding, EncoderSpec]:
    """Decide (``on_import``) and, to adopt, record the file's embedding; on REFUSE nothing is
    written and the caller refuses the file. With the decision, the embedding the store's vectors
    were made with (on REFUSE, the one that is not the file's)."""
    recorded, holds_vectors = _recorded(store), _holds_vectors(store)
    decision = on_import(recorded, holds_vectors, exported)
    if decision is ImportEmbedding.ADOPT:
        store.write(lambda tx: tx.run(ADOPT_EMBEDDING_MODEL, model=exported.name, at=datetime.now(UTC)))
        log.info("store: vectors are made with %s, as the imported file's were", exported.name)
        return decision, exported
    return decision, at_start(recorded, holds_vectors, exported)


def _recorded(store: Store) -> EncoderSpec | None:
    rows = store.read(EMBEDDING_MODEL)
    return parse_recorded(str(rows[0]["name"])) if rows else None


def _holds_vectors(store: Store) -> bool:
    def any_vector(tx: Transaction, label: str) -> bool:
        return bool(tx.run(ANY_VECTOR, labels={"NODE_LABEL": label}))

    return store.read_in(lambda tx: any(any_vector(tx, label) for label in _VECTOR_LABELS))
