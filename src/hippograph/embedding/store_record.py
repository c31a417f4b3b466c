"""Which embedding a store's vectors were made with: recorded in the store, and kept.

Vectors of two embeddings do not compare well (int8 weights move every vector a little, a
128-token cut moves every long text's), so a question must be embedded as the memories it is
compared with were. A new store records the embedding the settings name; a store that holds
episodes and no record is older than the record, and its vectors were all made with float32
weights cutting at 256 tokens. From then on the store keeps its embedding whatever the settings
say: an upgrade never mixes two kinds of vectors in one store, and the settings choose the
embedding of new stores (docs/operations.md). A record this version cannot make (a later
version's) is refused at start-up.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from hippograph.embedding.onnx_encoder import FLOAT32_256, EncoderSpec
from hippograph.store import Store

log = logging.getLogger(__name__)


class UnknownEmbedding(Exception):
    """The store's vectors were made by an embedding this version cannot make."""


def store_spec(store: Store, configured: EncoderSpec) -> EncoderSpec:
    """The embedding ``store``'s vectors are made with, recorded now if it had no record."""
    rows = store.read("embedding_model")
    if not rows:
        first = FLOAT32_256 if store.read("any_episode") else configured
        # Two servers opening one new store record one of theirs; both read back the same.
        rows = store.write(lambda tx: tx.run("record_embedding_model", model=first.name, at=datetime.now(UTC)))
        log.info("store: vectors are made with %s", rows[0]["name"])
    name = str(rows[0]["name"])
    try:
        recorded = EncoderSpec.parse(name)
    except ValueError:
        raise UnknownEmbedding(
            f"this store's vectors were made with the embedding {name!r}, which this version of "
            "Hippograph cannot make: run the version that wrote them"
        ) from None
    if recorded != configured:
        log.warning(
            "store: its vectors were made with %s, so it keeps embedding with that; the settings' %s "
            "(HIPPOGRAPH_EMBEDDING_MAX_TOKENS, HIPPOGRAPH_EMBEDDING_INT8) apply to new stores",
            recorded.name,
            configured.name,
        )
    return recorded
