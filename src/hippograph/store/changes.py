"""The change record behind ``memoryEvents``: every write that makes memory events records them in
its own transaction, numbered in a stream per namespace (cypher/history/record_changes.cypher), and every
server reads the streams in order. A subscriber on any server thus sees every server's writes,
once each and in commit order, and resumes after a reconnect from the last number it saw."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import TypeVar

from hippograph.kernel.events import EventKind, MemoryEvent
from hippograph.store.rows import CHANGE_HEAD, CHANGES_AFTER, EXPIRE_CHANGES, Change
from hippograph.store.store import Store, Transaction

__all__ = ["change_head", "changes_after", "expire_changes", "record_changes", "with_changes"]

T = TypeVar("T")


def with_changes(
    work: Callable[[Transaction], T], events_of: Callable[[T], Iterable[MemoryEvent]]
) -> Callable[[Transaction], T]:
    """``work``, then the events its result makes recorded in the same transaction (last, so that
    the streams stay locked only until the commit)."""

    def run(tx: Transaction) -> T:
        result = work(tx)
        record_changes(tx, events_of(result))
        return result

    return run


def record_changes(tx: Transaction, events: Iterable[MemoryEvent]) -> None:
    # The vectors and graphs written so far are stamped first: their Namespace before the change
    # streams, in the order capture takes them (its episode count, then its events), so that two
    # writers never wait for each other's locks.
    tx.stamp_writes()
    by_namespace: dict[str, list[dict[str, object]]] = defaultdict(list)
    for event in events:
        by_namespace[event.namespace].append(
            {
                "kind": event.kind.value,
                "target": event.id,
                "at": event.at,
                "actor": event.actor,
                "related": list(event.related),
                "reason": event.reason,
            }
        )
    for namespace in sorted(by_namespace):  # one order for every writer: no deadlock between streams
        tx.run("record_changes", namespace=namespace, events=by_namespace[namespace])


def change_head(store: Store, namespace: str) -> int:
    """The number of the namespace's latest change (0 before its first)."""
    return int(store.read(CHANGE_HEAD, namespace=namespace)[0]["seq"])


def changes_after(store: Store, namespace: str, after: int, limit: int) -> list[MemoryEvent]:
    """Up to ``limit`` of the namespace's changes numbered above ``after``, in order."""
    return [
        _event(namespace, row["change"])
        for row in store.read(CHANGES_AFTER, namespace=namespace, after=after, limit=limit)
    ]


def expire_changes(store: Store, cutoff: datetime, limit: int) -> int:
    rows = store.write(lambda tx: tx.run(EXPIRE_CHANGES, cutoff=cutoff, limit=limit))
    return int(rows[0]["deleted"]) if rows else 0


def _event(namespace: str, change: Change) -> MemoryEvent:
    return MemoryEvent(
        EventKind(change["kind"]),
        namespace,
        change["target"],
        change["at"],
        change["actor"],
        tuple(change.get("related") or ()),
        change.get("reason"),
        seq=int(change["seq"]),
    )
