"""Conflict modes (docs/memory-management.md, Conflict modes): a namespace's mode for each kind of
statement, and the conflicts the ``ask`` mode holds open until someone resolves them. The modes
themselves are applied by belief revision (revise.py, settle.py) in the commit's transaction."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from hippograph.kernel.errors import ErrorCode, HippographError, bad_input
from hippograph.kernel.events import EventKind, MemoryEvent
from hippograph.kernel.model import CONFLICT_MODES_OF, Conflict, ConflictKind, ConflictMode, ConflictSide
from hippograph.kernel.validation import optional_reason, validate_namespace
from hippograph.store import Store, Transaction
from hippograph.store.changes import record_changes
from hippograph.store.history import history_event
from hippograph.store.namespaces import conflict_modes, set_conflict_mode
from hippograph.store.rows import OPEN_CONFLICTS, RESOLVE_CONFLICT, OpenConflict
from hippograph.store.supersession import Replacement, supersede

__all__ = ["ConflictModes", "conflict_settings", "open_conflicts", "resolve_conflict", "switch_conflict_mode"]


@dataclass(frozen=True)
class ConflictModes:
    """A namespace's conflict mode for each kind of statement."""

    namespace: str
    attribute: ConflictMode
    relation: ConflictMode


def conflict_settings(store: Store, namespace: str) -> ConflictModes:
    validate_namespace(namespace)
    return _modes(namespace, conflict_modes(store, namespace))


def switch_conflict_mode(
    store: Store, clock: Callable[[], datetime], namespace: str, kind: ConflictKind, mode: ConflictMode, actor: str
) -> ConflictModes:
    validate_namespace(namespace)
    if mode not in CONFLICT_MODES_OF[kind]:
        allowed = sorted(m.value for m in CONFLICT_MODES_OF[kind])
        raise bad_input(f"conflict mode {mode.value} does not apply to {kind.value}; one of {allowed}", field="mode")
    return _modes(namespace, set_conflict_mode(store, namespace, kind, mode, actor, clock()))


def _modes(namespace: str, modes: dict[ConflictKind, ConflictMode]) -> ConflictModes:
    return ConflictModes(namespace, modes[ConflictKind.ATTRIBUTE], modes[ConflictKind.RELATION])


def open_conflicts(store: Store, namespace: str) -> list[Conflict]:
    """The namespace's open conflicts, oldest first."""
    validate_namespace(namespace)
    return [_conflict(namespace, row) for row in store.read(OPEN_CONFLICTS, namespace=namespace, conflict=None)]


def resolve_conflict(
    store: Store,
    clock: Callable[[], datetime],
    namespace: str,
    conflict_id: str,
    keep: Sequence[str],
    actor: str,
    reason: str | None = None,
) -> Conflict:
    """Settle an open conflict: the facts in ``keep`` (one, several or none of it) become active,
    the others superseded (by the first kept one, if any). History records it on the conflict and
    on each of its facts; the conflict as it was is returned."""
    validate_namespace(namespace)
    why = optional_reason(reason)
    now = clock()

    def write(tx: Transaction) -> Conflict:
        tx.writes_graph_of([namespace])
        rows = tx.run(OPEN_CONFLICTS, namespace=namespace, conflict=conflict_id)
        if not rows:
            raise HippographError(ErrorCode.NOT_FOUND, "no open conflict with this id in the namespace", id=conflict_id)
        conflict = _conflict(namespace, rows[0])
        members = [side.id for side in conflict.facts]
        strangers = sorted(set(keep) - set(members))
        if strangers:
            raise bad_input("keep names facts that are not in the conflict", field="keep", facts=strangers)
        kept = [fact for fact in members if fact in keep]
        dropped = [fact for fact in members if fact not in keep]
        statuses = [{"id": fact, "status": "active" if fact in keep else "superseded"} for fact in members]
        tx.run(RESOLVE_CONFLICT, namespace=namespace, conflict=conflict_id, facts=statuses)
        if kept:
            supersede(tx, [Replacement(kept[0], fact) for fact in dropped])
        metadata: dict[str, Any] = {"kept": kept, "dropped": dropped}
        history = [
            history_event(namespace, conflict_id, "conflict_resolved", actor, now, metadata=metadata, reason=why)
        ]
        for fact in members:
            detail = {"conflict": conflict_id, "kept": fact in keep}
            history.append(history_event(namespace, fact, "conflict_resolved", actor, now, metadata=detail, reason=why))
        tx.run("record_history", rows=history)
        related = (kept[0],) if kept else (conflict_id,)
        record_changes(
            tx, [MemoryEvent(EventKind.SUPERSEDED, namespace, fact, now, actor, related, why) for fact in dropped]
        )
        return conflict

    return store.write(write)


def _conflict(namespace: str, row: OpenConflict) -> Conflict:
    sides = tuple(
        ConflictSide(f["id"], f["statement"], f["status"], f["polarity"], f["confidence"], f["valid_from"])
        for f in sorted(row["facts"], key=lambda f: f["id"])
    )
    return Conflict(row["id"], namespace, ConflictKind(row["kind"]), row["opened_at"], sides)
