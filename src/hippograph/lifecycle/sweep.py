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

from hippograph.kernel.errors import ErrorCode, HippographError
from hippograph.kernel.events import EventKind, MemoryEvent
from hippograph.kernel.model import DEFAULT_IMPORTANCE
from hippograph.lifecycle.erase import EraseOutcome, erase_in, erased_events
from hippograph.lifecycle.forget import forget_in
from hippograph.runtime import Runtime
from hippograph.store import Row
from hippograph.store.changes import expire_changes, with_changes
from hippograph.store.limits import expire_limits

log = logging.getLogger(__name__)

ACTOR = "sweeper"
BATCH = 200


@dataclass(frozen=True)
class SweepReport:
    expired_events: int  # events soft-forgotten by their TTL
    erased: int  # memories erased after the recovery window (not counting what went with them)
    history_purged: int  # History events past retention


def sweep(runtime: Runtime, namespace: str | None = None) -> SweepReport:
    """One full sweep, of one namespace or of all."""
    now = runtime.clock()
    settings = runtime.settings
    expired = _in_batches(
        lambda: runtime.store.read(
            "expired_events",
            namespace=namespace,
            cutoff=now - timedelta(days=settings.lifecycle.event_ttl_days),
            max_importance=DEFAULT_IMPORTANCE,
            limit=BATCH,
        ),
        lambda rows: _expire_events(runtime, rows, now),
    )
    erased = _in_batches(
        lambda: runtime.store.read(
            "forgotten_before",
            namespace=namespace,
            cutoff=now - timedelta(days=settings.lifecycle.recover_window_days),
            limit=BATCH,
        ),
        lambda rows: _erase_forgotten(runtime, rows, now),
    )
    cutoff = now - timedelta(days=settings.lifecycle.history_retention_days)
    purged = _in_batches(
        lambda: runtime.store.write(
            lambda tx: tx.run("expire_history", namespace=namespace, cutoff=cutoff, limit=BATCH)
        ),
        lambda rows: rows[0]["deleted"],
        size=lambda rows: rows[0]["deleted"],
    )
    changes_cutoff = now - timedelta(days=settings.lifecycle.change_retention_days)
    changes = 0
    while (deleted := expire_changes(runtime.store, changes_cutoff, BATCH)) > 0:
        changes += deleted
    # Past the longest backoff and an hour, a budget would be full again and a count start over.
    limits_cutoff = now.timestamp() - max(settings.access.auth_backoff_max_s, 3600.0)
    while (deleted := expire_limits(runtime.store, limits_cutoff, BATCH)) > 0:
        changes += deleted
    report = SweepReport(expired, erased, purged)
    if expired or erased or purged or changes:
        log.info("sweep: %s, %d changes, budgets and failure counts past retention", report, changes)
    return report


def _in_batches(
    fetch: Callable[[], list[Row]], handle: Callable[[list[Row]], int], size: Callable[[list[Row]], int] = len
) -> int:
    """Fetch and handle batches until one comes back short; the sum of what each handled."""
    total = 0
    while True:
        rows = fetch()
        total += handle(rows)
        if size(rows) < BATCH:
            return total


def _expire_events(runtime: Runtime, rows: list[Row], now: datetime) -> int:
    reason = f"event TTL: never accessed in {runtime.settings.lifecycle.event_ttl_days:g} days"
    by_namespace: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        by_namespace[row["namespace"]].append(row["id"])
    for space, ids in by_namespace.items():
        runtime.store.write(
            with_changes(
                partial(forget_in, namespace=space, ids=ids, now=now, actor=ACTOR, reason=reason),
                partial(_forgotten_events, space, now, reason),
            )
        )
    return len(rows)


def _forgotten_events(namespace: str, now: datetime, reason: str, forgotten: tuple[str, ...]) -> list[MemoryEvent]:
    return [
        MemoryEvent(EventKind.FORGOTTEN, namespace, memory_id, now, ACTOR, reason=reason) for memory_id in forgotten
    ]


def _erased_events(namespace: str, now: datetime, reason: str, outcome: EraseOutcome) -> list[MemoryEvent]:
    return erased_events(namespace, outcome, now, ACTOR, reason)


def _erase_forgotten(runtime: Runtime, rows: list[Row], now: datetime) -> int:
    reason = f"forgotten more than {runtime.settings.lifecycle.recover_window_days:g} days ago"
    erased = 0
    for row in rows:
        space, memory_id = row["namespace"], row["id"]
        try:
            runtime.store.write(
                with_changes(
                    partial(erase_in, namespace=space, memory_id=memory_id, reason=reason, actor=ACTOR, now=now),
                    partial(_erased_events, space, now, reason),
                )
            )
        except HippographError as error:
            if error.code is not ErrorCode.NOT_FOUND:
                raise
            continue  # erased along with an episode earlier in this batch
        erased += 1
    return erased
