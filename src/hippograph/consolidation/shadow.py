"""Shadow mode (docs/memory-management.md, Shadow mode): a namespace's consolidation runs in full,
in a transaction that is rolled back, and what it would have done goes to History under the actor
``consolidation-shadow``; the episode is parked (state shadowed) until shadow mode is turned off,
which sends it round again to be applied for real."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from hippograph.consolidation.batch import EpisodeWork
from hippograph.consolidation.commit import commit_episodes
from hippograph.kernel.events import MemoryEvent
from hippograph.kernel.priority import Priority
from hippograph.kernel.validation import validate_namespace
from hippograph.store import Store, Transaction
from hippograph.store.history import history_event
from hippograph.store.namespaces import ShadowMode, set_shadow_mode, shadow_mode
from hippograph.store.rows import PARK_EPISODE, PROPOSED_FACTS, SHADOW_NAMESPACES

__all__ = ["rehearse", "shadow_status", "shadowed_namespaces", "switch_shadow_mode"]

SHADOW_ACTOR = "consolidation-shadow"
PROPOSED = "consolidation_proposed"


def shadow_status(store: Store, namespace: str) -> ShadowMode:
    validate_namespace(namespace)
    return shadow_mode(store, namespace)


def switch_shadow_mode(
    store: Store, clock: Callable[[], datetime], namespace: str, enabled: bool, actor: str
) -> ShadowMode:
    validate_namespace(namespace)
    return set_shadow_mode(store, namespace, enabled, actor, clock())


def shadowed_namespaces(store: Store, namespaces: Iterable[str]) -> set[str]:
    return {row["name"] for row in store.read(SHADOW_NAMESPACES, namespaces=sorted(set(namespaces)))}


def rehearse(store: Store, work: EpisodeWork, worker: str, now: datetime, context_turns: int) -> bool:
    """Consolidate one episode in a rolled-back transaction, then record its proposals and park
    it; False when it was not parked and nothing was recorded: our lease on it was lost, or shadow
    mode was turned off meanwhile and it went back to raw."""
    proposals = store.rehearse(lambda tx: _propose(tx, work, worker, now, context_turns), priority=Priority.BACKGROUND)
    if proposals is None:
        return False
    return bool(store.write(lambda tx: _park(tx, work, worker, now, proposals), priority=Priority.BACKGROUND))


def _propose(
    tx: Transaction, work: EpisodeWork, worker: str, now: datetime, context_turns: int
) -> list[dict[str, Any]] | None:
    events: list[MemoryEvent] = []
    [owned] = commit_episodes(tx, [work], worker, now, events, context_turns=context_turns)
    if not owned:
        return None
    facts = {row["id"]: row for row in tx.run(PROPOSED_FACTS, ids=sorted({event.id for event in events}))}
    return [
        {
            "event": event.kind.value,
            "fact": event.id,
            "related": list(event.related),
            "statement": facts[event.id]["statement"] if event.id in facts else None,
            "kind": facts[event.id]["kind"] if event.id in facts else None,
        }
        for event in events
    ]


def _park(tx: Transaction, work: EpisodeWork, worker: str, now: datetime, proposals: list[dict[str, Any]]) -> bool:
    [row] = tx.run(PARK_EPISODE, id=work.id, worker=worker, now=now)
    if row["parked"]:
        # The fact ids name facts that were never kept: applying the episode later mints new ones.
        event = history_event(
            work.namespace,
            work.id,
            PROPOSED,
            SHADOW_ACTOR,
            now,
            metadata={"proposals": proposals, "facts_proposed": len(work.extraction.facts)},
        )
        tx.run("record_history", rows=[event])
    return bool(row["parked"])
