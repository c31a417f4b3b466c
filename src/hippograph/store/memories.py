"""Reading memories: by id, by page, and hydrating ids that recall has already authorized."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from hippograph.kernel.errors import ErrorCode, HippographError, bad_input
from hippograph.kernel.model import Episode, Fact, Memory
from hippograph.kernel.validation import validate_namespace
from hippograph.store import Store, Transaction
from hippograph.store.rows import EPISODES_BY_ID, FACTS_BY_ID, PAGE_EPISODES, PAGE_FACTS, SESSION_CHAIN

__all__ = [
    "Page",
    "episodes_in",
    "facts_in",
    "get_fact",
    "get_memory",
    "hydrate",
    "hydrate_in",
    "memory_from_row",
    "page_memories",
    "session_episodes",
]

M = TypeVar("M", bound=Episode | Fact)


def hydrate(store: Store, namespace: str, ids: Sequence[str]) -> dict[str, Memory]:
    """The memories with these ids in the namespace, keyed by id (ids not found are absent)."""
    if not ids:
        return {}
    return store.read_in(lambda tx: hydrate_in(tx, namespace, ids))


def hydrate_in(tx: Transaction, namespace: str, ids: Sequence[str]) -> dict[str, Memory]:
    return {**episodes_in(tx, namespace, ids), **facts_in(tx, namespace, ids)}


def episodes_in(tx: Transaction, namespace: str, ids: Sequence[str]) -> dict[str, Episode]:
    """The episodes with these ids in the namespace (ids of anything else are absent)."""
    rows = tx.run_listed(EPISODES_BY_ID, ids=list(ids), namespace=namespace) if ids else []
    return {row["id"]: memory_from_row(Episode, row) for row in rows}


def facts_in(tx: Transaction, namespace: str, ids: Sequence[str]) -> dict[str, Fact]:
    """The facts with these ids in the namespace (ids of anything else are absent)."""
    rows = tx.run_listed(FACTS_BY_ID, ids=list(ids), namespace=namespace) if ids else []
    return {row["id"]: memory_from_row(Fact, row) for row in rows}


def session_episodes(store: Store, namespace: str, session: str, last: int, max_page: int) -> list[Episode]:
    """The last ``last`` episodes of a session that are not forgotten, in the session's order."""
    validate_namespace(namespace)
    if not 0 < last <= max_page:
        raise bad_input(f"last must be between 1 and {max_page}", field="last")

    def read(tx: Transaction) -> list[Episode]:
        ids = [row["id"] for row in tx.run(SESSION_CHAIN, namespace=namespace, session=session)]
        found = episodes_in(tx, namespace, ids)
        kept = [found[i] for i in ids if i in found and found[i].forgotten_at is None]
        return kept[-last:]

    return store.read_in(read)


def get_memory(store: Store, namespace: str, memory_id: str) -> Memory:
    validate_namespace(namespace)
    memory = hydrate(store, namespace, [memory_id]).get(memory_id)
    if memory is None:
        raise HippographError(ErrorCode.NOT_FOUND, f"no memory {memory_id!r} in namespace {namespace!r}")
    return memory


def get_fact(store: Store, namespace: str, fact_id: str) -> Fact:
    """The fact with this id; an episode is refused, as episodes are immutable records."""
    memory = get_memory(store, namespace, fact_id)
    if isinstance(memory, Episode):
        raise HippographError(
            ErrorCode.EPISODE_IMMUTABLE,
            f"{fact_id} is an episode; episodes are immutable (forget or erase it instead)",
            field="id",
        )
    return memory


@dataclass(frozen=True)
class Page:
    memories: list[Memory]
    has_next: bool


def page_memories(store: Store, namespace: str, first: int, before: str | None, max_page: int) -> Page:
    """Newest first, episodes and facts interleaved by id (ULIDs sort by creation time)."""
    validate_namespace(namespace)
    if not 0 < first <= max_page:
        raise bad_input(f"first must be between 1 and {max_page}", field="first")

    def read(tx: Transaction) -> Page:
        ids: list[str] = []
        for query in (PAGE_EPISODES, PAGE_FACTS):
            ids += [row["id"] for row in tx.run(query, namespace=namespace, before=before, limit=first + 1)]
        ids = sorted(ids, reverse=True)[: first + 1]
        found = hydrate_in(tx, namespace, ids[:first])
        return Page([found[i] for i in ids[:first] if i in found], has_next=len(ids) > first)

    return store.read_in(read)


def memory_from_row(cls: type[M], row: Mapping[str, Any]) -> M:
    """An episode or fact from a query's map of its properties (episodes_by_id, facts_by_id);
    keys that are not fields of ``cls`` are left out."""
    values: dict[str, Any] = {f.name: row.get(f.name) for f in fields(cls)}
    values["tags"] = values["tags"] or []
    values["access_count"] = values["access_count"] or 0
    values["pinned"] = bool(values["pinned"])
    if cls is Episode:
        values["observed_by"] = values["observed_by"] or []
        values["metadata"] = json.loads(values["metadata"]) if values["metadata"] else None
    else:
        values["supported_by"] = values["supported_by"] or []
    return cls(**values)
