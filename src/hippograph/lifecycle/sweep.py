"""Sweeps (docs/memory-management.md): event TTL, erasure of memories forgotten past the recovery
window, History retention and the change record's. `serve` runs them every ``sweep_interval_s``;
`hippograph sweep` runs them once.
Each step works in batches, each batch its own transaction, so a sweep never holds the store long.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import TypeVar

from hippograph.kernel.config import Access, LifecycleSettings
from hippograph.kernel.errors import ErrorCode, HippographError
from hippograph.kernel.events import EventKind, MemoryEvent
from hippograph.kernel.model import DEFAULT_IMPORTANCE
from hippograph.lifecycle.erase import EraseOutcome, erase_in, erased_events
from hippograph.lifecycle.forget import forget_in
from hippograph.store import Store
from hippograph.store.access import AccessLog
from hippograph.store.changes import expire_changes, with_changes
from hippograph.store.limits import expire_limits
from hippograph.store.rows import EXPIRE_HISTORY, EXPIRED_EVENTS, FORGOTTEN_BEFORE, MemoryOfNamespace

__all__ = ["SweepPlan", "SweepReport", "by_namespace", "plan_sweep", "sweep", "sweep_store"]

log = logging.getLogger(__name__)

ACTOR = "sweeper"
BATCH = 200
# A batch's row.
B = TypeVar("B")


@dataclass(frozen=True)
class SweepReport:
    expired_events: int  # events soft-forgotten by their TTL
    erased: int  # memories erased after the recovery window (not counting what went with them)
    history_purged: int  # History events past retention


@dataclass(frozen=True)
class SweepPlan:
    """What one sweep removes, decided from the time and the settings alone: everything before
    its cutoff, and the reason each forget and erasure records."""

    now: datetime
    events_before: datetime  # events never accessed since are forgotten
    expire_reason: str
    forgotten_before: datetime  # memories forgotten before are erased
    erase_reason: str
    history_before: datetime
    changes_before: datetime
    limits_before: float  # epoch seconds: budgets and failure counts untouched since are dropped


def plan_sweep(now: datetime, lifecycle: LifecycleSettings, access: Access) -> SweepPlan:
    return SweepPlan(
        now=now,
        events_before=now - timedelta(days=lifecycle.event_ttl_days),
        expire_reason=f"event TTL: never accessed in {lifecycle.event_ttl_days:g} days",
        forgotten_before=now - timedelta(days=lifecycle.recover_window_days),
        erase_reason=f"forgotten more than {lifecycle.recover_window_days:g} days ago",
        history_before=now - timedelta(days=lifecycle.history_retention_days),
        changes_before=now - timedelta(days=lifecycle.change_retention_days),
        # Past the longest backoff and an hour, a budget would be full again and a count start over.
        limits_before=now.timestamp() - max(access.auth_backoff_max_s, 3600.0),
    )


# How long a sweep waits for this process's recalls' access counts to be written before it reads them.
_ACCESS_FLUSH_S = 10.0


def sweep(
    store: Store,
    clock: Callable[[], datetime],
    lifecycle: LifecycleSettings,
    access: Access,
    namespace: str | None = None,
    accesses: AccessLog | None = None,
) -> SweepReport:
    """One full sweep, of one namespace or of all. With ``accesses``, the access counts this
    process's recalls recorded are written first: a recall writes them just after it answers, and
    a memory recalled a moment before the sweep must not expire as never accessed."""
    if accesses is not None and not accesses.flush(_ACCESS_FLUSH_S):
        log.warning(
            "sweep: recalls' access counts still unwritten after %.0f s; sweeping without them", _ACCESS_FLUSH_S
        )
    return sweep_store(store, plan_sweep(clock(), lifecycle, access), namespace)


def sweep_store(store: Store, plan: SweepPlan, namespace: str | None = None) -> SweepReport:
    """Carry ``plan`` out on ``store``."""
    expired = _in_batches(
        lambda: store.read(
            EXPIRED_EVENTS,
            namespace=namespace,
            cutoff=plan.events_before,
            max_importance=DEFAULT_IMPORTANCE,
            limit=BATCH,
        ),
        lambda rows: _expire_events(store, rows, plan),
    )
    erased = _in_batches(
        lambda: store.read(FORGOTTEN_BEFORE, namespace=namespace, cutoff=plan.forgotten_before, limit=BATCH),
        lambda rows: _erase_forgotten(store, rows, plan),
    )
    purged = _in_batches(
        lambda: store.write(
            lambda tx: tx.run(EXPIRE_HISTORY, namespace=namespace, cutoff=plan.history_before, limit=BATCH)
        ),
        lambda rows: rows[0]["deleted"],
        size=lambda rows: rows[0]["deleted"],
    )
    changes = 0
    while (deleted := expire_changes(store, plan.changes_before, BATCH)) > 0:
        changes += deleted
    while (deleted := expire_limits(store, plan.limits_before, BATCH)) > 0:
        changes += deleted
    report = SweepReport(expired, erased, purged)
    if expired or erased or purged or changes:
        log.info("sweep: %s, %d changes, budgets and failure counts past retention", report, changes)
    return report


def _in_batches(
    fetch: Callable[[], list[B]], handle: Callable[[list[B]], int], size: Callable[[list[B]], int] = len
) -> int:
    """Fetch and handle batches until one comes back short; the sum of what each handled."""
    total = 0
    while True:
        rows = fetch()
        total += handle(rows)
        if size(rows) < BATCH:
            return total


def by_namespace(rows: list[MemoryOfNamespace]) -> dict[str, list[str]]:
    """A batch's memories per namespace, in the batch's order: each namespace is forgotten in a
    transaction of its own, with its own History and events."""
    grouped: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        grouped[row["namespace"]].append(row["id"])
    return dict(grouped)


def _expire_events(store: Store, rows: list[MemoryOfNamespace], plan: SweepPlan) -> int:
    for space, ids in by_namespace(rows).items():
        store.write(
            with_changes(
                partial(forget_in, namespace=space, ids=ids, now=plan.now, actor=ACTOR, reason=plan.expire_reason),
                partial(_forgotten_events, space, plan.now, plan.expire_reason),
            )
        )
    return len(rows)


def _forgotten_events(namespace: str, now: datetime, reason: str, forgotten: tuple[str, ...]) -> list[MemoryEvent]:
    return [
        MemoryEvent(EventKind.FORGOTTEN, namespace, memory_id, now, ACTOR, reason=reason) for memory_id in forgotten
    ]


def _erased_events(namespace: str, now: datetime, reason: str, outcome: EraseOutcome) -> list[MemoryEvent]:
    return erased_events(namespace, outcome, now, ACTOR, reason)


def _erase_forgotten(store: Store, rows: list[MemoryOfNamespace], plan: SweepPlan) -> int:
    erased = 0
    for row in rows:
        space, memory_id = row["namespace"], row["id"]
        try:
            store.write(
                with_changes(
                    partial(
                        erase_in,
                        namespace=space,
                        memory_id=memory_id,
                        reason=plan.erase_reason,
                        actor=ACTOR,
                        now=plan.now,
                    ),
                    partial(_erased_events, space, plan.now, plan.erase_reason),
                )
            )
        except HippographError as error:
            if error.code is not ErrorCode.NOT_FOUND:
                raise
            continue  # erased along with an episode earlier in this batch
        erased += 1
    return erased
