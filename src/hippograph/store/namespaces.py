"""What a namespace's data is made of, and removing all of it (a reset, or undoing a failed import)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from hippograph.kernel.model import DEFAULT_CONFLICT_MODES, ConflictKind, ConflictMode
from hippograph.store.history import history_event
from hippograph.store.rows import (
    BLOCK_DESTRUCTIVE,
    CENSUS_NAMESPACE,
    CONFLICT_MODES,
    DELETE_NAMESPACE_NODES,
    LIST_NAMESPACES,
    NAMESPACE_HAS_FACTS,
    NAMESPACE_RECORD_EXISTS,
    SET_BLOCK_DESTRUCTIVE,
    SET_CONFLICT_MODE,
    SET_SHADOW_MODE,
    SHADOW_MODE,
)
from hippograph.store.store import Store, Transaction

__all__ = [
    "NAMESPACE_LABEL",
    "NODE_LABELS",
    "NamespaceSummary",
    "ShadowMode",
    "census",
    "conflict_modes",
    "conflict_modes_of",
    "delete_namespace",
    "list_namespaces",
    "namespace_known",
    "set_conflict_mode",
    "set_shadow_mode",
    "shadow_mode",
]

# The labels a namespace's data has, in the order an import creates them. Namespace is the
# namespace's own record (its episode count), named by ``name``; every other node by ``id``.
NODE_LABELS: tuple[str, ...] = (
    "Namespace",
    "Session",
    "Episode",
    "Entity",
    "Concept",
    "Alias",
    "Fact",
    "Skill",
    "BadPattern",
    "WorkItem",
    "Summary",
    "History",
)
NAMESPACE_LABEL = "Namespace"
# Deleting in slices keeps each transaction small, whatever the namespace holds.
_DELETE_BATCH = 2000


@dataclass(frozen=True)
class NamespaceSummary:
    name: str
    episodes: int


@dataclass(frozen=True)
class ShadowMode:
    """Whether a namespace consolidates in shadow mode, and how many episodes wait parked."""

    namespace: str
    enabled: bool
    parked: int


def shadow_mode(store: Store, namespace: str) -> ShadowMode:
    [row] = store.read(SHADOW_MODE, namespace=namespace)
    return ShadowMode(namespace, bool(row["enabled"]), int(row["parked"]))


def set_shadow_mode(store: Store, namespace: str, enabled: bool, actor: str, now: datetime) -> ShadowMode:
    """Turn shadow mode on or off; off re-queues the parked episodes. History records the change
    (target: the namespace) with how many episodes went back to consolidation."""

    def write(tx: Transaction) -> None:
        [row] = tx.run(SET_SHADOW_MODE, namespace=namespace, enabled=enabled)
        event = "shadow_mode_on" if enabled else "shadow_mode_off"
        metadata = None if enabled else {"requeued": int(row["requeued"])}
        tx.run("record_history", rows=[history_event(namespace, namespace, event, actor, now, metadata=metadata)])

    store.write(write)
    return shadow_mode(store, namespace)


@dataclass(frozen=True)
class DestructiveBlocking:
    """Whether a namespace's consolidation blocks destructive proposals, and how many it blocked."""

    namespace: str
    enabled: bool
    blocked: int


def destructive_blocking(store: Store, namespace: str) -> DestructiveBlocking:
    [row] = store.read(BLOCK_DESTRUCTIVE, namespace=namespace)
    return DestructiveBlocking(namespace, bool(row["enabled"]), int(row["blocked"]))


def set_destructive_blocking(
    store: Store, namespace: str, enabled: bool, actor: str, now: datetime
) -> DestructiveBlocking:
    """Turn the blocking of destructive proposals on or off; History records the change (target:
    the namespace). What was blocked stays as it was either way."""

    def write(tx: Transaction) -> None:
        tx.run(SET_BLOCK_DESTRUCTIVE, namespace=namespace, enabled=enabled)
        event = "block_destructive_on" if enabled else "block_destructive_off"
        tx.run("record_history", rows=[history_event(namespace, namespace, event, actor, now)])

    store.write(write)
    return destructive_blocking(store, namespace)


def list_namespaces(store: Store, only: Iterable[str] | None = None) -> list[NamespaceSummary]:
    """The namespaces captured in, by name; ``only``: these (those without data with 0 episodes)."""
    held = {row["name"]: int(row["episodes"]) for row in store.read(LIST_NAMESPACES)}
    names = sorted(held) if only is None else sorted(set(only))
    return [NamespaceSummary(name, held.get(name, 0)) for name in names]


def namespace_known(store: Store, namespace: str) -> bool:
    """Whether the namespace holds anything: its record (its first capture made it) or a fact."""
    return bool(store.read(NAMESPACE_RECORD_EXISTS, namespace=namespace)) or bool(
        store.read(NAMESPACE_HAS_FACTS, namespace=namespace)
    )


def census(store: Store, namespace: str) -> dict[str, int]:
    """How many nodes of each label the namespace holds (its own record aside)."""
    return {row["label"]: row["count"] for row in store.read(CENSUS_NAMESPACE, namespace=namespace)}


def delete_namespace(store: Store, namespace: str) -> dict[str, int]:
    """Delete every node of the namespace, with its relationships, then its record; how many of each label."""
    deleted: dict[str, int] = {}
    for label in NODE_LABELS:
        if label != NAMESPACE_LABEL:
            while count := store.write(partial(_delete_some, label=label, namespace=namespace)):
                deleted[label] = deleted.get(label, 0) + count
    store.write(lambda tx: tx.run("delete_namespace_record", namespace=namespace))
    return deleted


def _delete_some(tx: Transaction, label: str, namespace: str) -> int:
    rows = tx.run(DELETE_NAMESPACE_NODES, labels={"NODE_LABEL": label}, namespace=namespace, limit=_DELETE_BATCH)
    return int(rows[0]["deleted"])


def conflict_modes_of(row: Mapping[str, Any]) -> dict[ConflictKind, ConflictMode]:
    """A namespace's conflict mode for each kind, from its record's row (conflict_modes): the
    default where it set none."""
    return {kind: ConflictMode(row[kind.value] or DEFAULT_CONFLICT_MODES[kind]) for kind in ConflictKind}


def conflict_modes(store: Store, namespace: str) -> dict[ConflictKind, ConflictMode]:
    [row] = store.read(CONFLICT_MODES, namespace=namespace)
    return conflict_modes_of(row)


def set_conflict_mode(
    store: Store, namespace: str, kind: ConflictKind, mode: ConflictMode, actor: str, now: datetime
) -> dict[ConflictKind, ConflictMode]:
    """Set the namespace's mode for ``kind``; History records the change (target: the namespace)
    with the mode it replaced. Open conflicts stay open whatever the new mode is."""

    def write(tx: Transaction) -> None:
        [row] = tx.run(CONFLICT_MODES, namespace=namespace)
        before = conflict_modes_of(row)[kind]
        modes: dict[str, Any] = {k.value: mode.value if k is kind else None for k in ConflictKind}
        tx.run(SET_CONFLICT_MODE, namespace=namespace, **modes)
        metadata = {"kind": kind.value, "mode": mode.value, "previous": before.value}
        tx.run(
            "record_history",
            rows=[history_event(namespace, namespace, "conflict_mode_set", actor, now, metadata=metadata)],
        )

    store.write(write)
    return conflict_modes(store, namespace)
