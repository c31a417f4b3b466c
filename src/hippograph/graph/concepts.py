"""Reading concepts (docs/architecture.md, The write path): the common-noun phrases memories meet at, a namespace's concepts,
the concepts a memory is about, and the memories about one concept as recall would see them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from hippograph.kernel.errors import ErrorCode, HippographError
from hippograph.kernel.model import Memory
from hippograph.kernel.validation import validate_namespace
from hippograph.store import Store, Transaction
from hippograph.store.memories import hydrate_in
from hippograph.store.rows import CONCEPT_MEMORY_IDS, CONCEPTS_BY_ID, MEMORY_CONCEPTS, PAGE_CONCEPTS, ConceptMap

__all__ = ["Concept", "concept_memories", "get_concept", "list_concepts", "memory_concepts"]


@dataclass(frozen=True)
class Concept:
    id: str
    namespace: str
    name: str  # its key: lowercase lemmas ("pottery class")
    episode_count: int  # the episodes about it, forgotten or not (the graph channel's idf)
    memory_count: int  # the episodes and facts about it that are not forgotten


def list_concepts(store: Store, namespace: str, *, search: str | None, skip: int, first: int) -> list[Concept]:
    """A page of concepts, those most episodes are about first; ``search``: names containing it."""
    validate_namespace(namespace)
    term = search.strip().lower() if search is not None else None
    rows = store.read(PAGE_CONCEPTS, namespace=namespace, search=term or None, skip=skip, limit=first)
    return [_concept(row["concept"]) for row in rows]


def get_concept(store: Store, namespace: str, concept_id: str) -> Concept:
    validate_namespace(namespace)
    return store.read_in(lambda tx: _get(tx, namespace, concept_id))


def concept_memories(
    store: Store,
    namespace: str,
    concept_id: str,
    *,
    as_of: datetime | None,
    known_at: datetime | None,
    skip: int,
    first: int,
) -> list[Memory]:
    """The memories about a concept, newest first, visible at ``as_of`` as known at ``known_at``."""
    validate_namespace(namespace)

    def read(tx: Transaction) -> list[Memory]:
        _get(tx, namespace, concept_id)
        rows = tx.run(
            CONCEPT_MEMORY_IDS,
            namespace=namespace,
            id=concept_id,
            as_of=as_of,
            known_at=known_at,
            skip=skip,
            limit=first,
        )
        ids = [row["id"] for row in rows]
        found = hydrate_in(tx, namespace, ids)
        return [found[memory_id] for memory_id in ids if memory_id in found]

    return store.read_in(read)


def memory_concepts(store: Store, namespace: str, ids: Sequence[str]) -> dict[str, list[Concept]]:
    """The concepts each memory is about, the rarest first (the most telling)."""
    if not ids:
        return {}
    out: dict[str, list[Concept]] = {}
    for row in store.read(MEMORY_CONCEPTS, namespace=namespace, ids=list(ids)):
        out.setdefault(row["memory"], []).append(_concept(row["concept"]))
    return out


def _get(tx: Transaction, namespace: str, concept_id: str) -> Concept:
    rows = tx.run(CONCEPTS_BY_ID, namespace=namespace, ids=[concept_id])
    if not rows:
        raise HippographError(ErrorCode.NOT_FOUND, f"no concept {concept_id!r} in namespace {namespace!r}")
    return _concept(rows[0]["concept"])


def _concept(row: ConceptMap) -> Concept:
    return Concept(row["id"], row["namespace"], row["name"], row["episode_count"] or 0, row["memory_count"] or 0)
