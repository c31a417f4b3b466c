"""Context vectors: what a conversation turn means with the turns before it.

A turn often means something only with the one before it ("Yes, we went there last summer!").
Each episode gets a second vector, the normalized sum of its own embedding and those of up to
``turns`` turns before it in its session (the NEXT chain capture builds), which recall's context
channel searches beside the episodes' own vectors (docs/benchmarks.md). Summing the stored
embeddings costs no model pass, and it depends only on capture order, so capture writes it in the
transaction that stores the episode (a fresh turn is found as it will be after consolidation),
and consolidation writes the same vector again, for an episode whose embedding came late. An
episode without an embedding (its embedder failed at capture) gets none; a turn before it without
one is left out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar, overload

from hippograph.embedding.embedder import Vector
from hippograph.store.rows import CONTEXT_SOURCES, Query

R = TypeVar("R")


class Runs(Protocol):
    """What capture's and consolidation's steps need of a transaction: named statements."""

    @overload
    def run(self, name: Query[R], **params: Any) -> list[R]: ...
    @overload
    def run(self, name: str, **params: Any) -> list[dict[str, Any]]: ...


def write_context_vectors(tx: Runs, ids: Sequence[str], turns: int) -> None:
    """Set the context vector of each of these episodes from ``turns`` turns before it (0: none)."""
    if turns <= 0 or not ids:
        return
    rows = []
    for row in tx.run(CONTEXT_SOURCES, ids=list(ids)):
        previous = [row["previous1"], row["previous2"]][:turns]
        rows.append({"id": row["id"], "embedding": context_vector(row["embedding"], previous)})
    if rows:
        tx.run("set_context_embeddings", rows=rows)


def context_vector(own: Vector, previous: Sequence[Vector | None]) -> Vector:
    """The unit-length sum of a turn's vector and those of the turns before it that have one."""
    total = list(own)
    for vector in previous:
        if vector is not None:
            total = [a + b for a, b in zip(total, vector, strict=True)]
    norm = math.sqrt(math.fsum(x * x for x in total)) or 1.0
    return [x / norm for x in total]
