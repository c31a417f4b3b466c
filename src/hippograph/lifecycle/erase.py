"""Erasure (docs/memory-management.md): irreversible, unlike forget. One transaction removes the memory, the facts
whose only support it was, the typed edges those facts created, the entities nothing mentions any
more (with their CO_OCCURS and aliases), and the content of their History, which stays behind as
content-free tombstones.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from hippograph.kernel.errors import ErrorCode, HippographError
from hippograph.kernel.events import EventKind, MemoryEvent
from hippograph.kernel.model import Episode
from hippograph.kernel.validation import require_reason, validate_namespace
from hippograph.store import Store, Transaction
from hippograph.store.changes import with_changes
from hippograph.store.history import history_event
from hippograph.store.memories import hydrate_in
from hippograph.store.promotions import review_quietly
from hippograph.store.rows import (
    CLEAR_FOLLOWING_CONTEXTS,
    DELETE_UNMENTIONED_ENTITIES,
    ERASE_EPISODE_PLAN,
    FACT_ENTITIES,
)

__all__ = ["EraseOutcome", "erase", "erase_in", "erased_events"]


@dataclass(frozen=True)
class EraseOutcome:
    id: str
    facts: tuple[str, ...]  # erased with it: facts it alone supported
    entities: tuple[str, ...]  # erased with it: entities nothing mentions any more


def erase(
    store: Store, clock: Callable[[], datetime], namespace: str, memory_id: str, reason: str, actor: str
) -> EraseOutcome:
    validate_namespace(namespace)
    why = require_reason(reason)
    now = clock()
    outcome = store.write(
        with_changes(
            lambda tx: erase_in(tx, namespace, memory_id, why, actor, now),
            lambda outcome: erased_events(namespace, outcome, now, actor, why),
        )
    )
    review_quietly(store, [namespace], now)
    return outcome


def erased_events(namespace: str, outcome: EraseOutcome, now: datetime, actor: str, reason: str) -> list[MemoryEvent]:
    """One event for the memory, and one for each fact erased with it (``related``: the memory)."""
    first = MemoryEvent(EventKind.ERASED, namespace, outcome.id, now, actor, reason=reason)
    return [first] + [
        MemoryEvent(EventKind.ERASED, namespace, fact, now, actor, related=(outcome.id,), reason=reason)
        for fact in outcome.facts
    ]


def erase_in(tx: Transaction, namespace: str, memory_id: str, reason: str, actor: str, now: datetime) -> EraseOutcome:
    """The whole cascade inside one transaction (the sweeper runs it too)."""
    tx.writes_graph_of([namespace])
    memory = hydrate_in(tx, namespace, [memory_id]).get(memory_id)
    if memory is None:
        raise HippographError(ErrorCode.NOT_FOUND, f"no memory {memory_id!r} in namespace {namespace!r}")
    weakened: list[str] = []
    sessions: list[str] = []
    if isinstance(memory, Episode):
        plan = tx.run(ERASE_EPISODE_PLAN, namespace=namespace, id=memory_id)[0]
        facts, weakened, sessions = plan["facts"], plan["weakened"], plan["sessions"]
        mentioned = plan["entities"]
    else:
        facts, mentioned = [memory_id], []
    about = [row["id"] for row in tx.run(FACT_ENTITIES, facts=facts)] if facts else []
    entities = sorted(set(mentioned) | set(about))

    if facts:
        tx.run("delete_fact_relations", facts=facts)
    if isinstance(memory, Episode):
        tx.run(CLEAR_FOLLOWING_CONTEXTS, id=memory_id)
        tx.run("relink_next", id=memory_id)
        tx.run("retract_session_tail", id=memory_id)
        tx.run("erase_episode_concepts", namespace=namespace, id=memory_id)
        tx.run("summaries/drop_summaries_of", namespace=namespace, id=memory_id)
        tx.run("delete_episode", namespace=namespace, id=memory_id)
        if sessions:
            tx.run("delete_empty_sessions", ids=sessions)
    cascaded = [fact for fact in facts if fact != memory_id]
    tx.run("delete_facts", namespace=namespace, ids=facts)
    if weakened:
        tx.run("refresh_fact_strength", facts=weakened)
        # What the erased episode said no longer makes a fact about its concepts.
        tx.run("sync_fact_concepts", facts=weakened)
    erased_entities: list[str] = []
    if entities:
        tx.run("recount_mentions", entities=entities)
        erased_entities = [
            row["id"] for row in tx.run(DELETE_UNMENTIONED_ENTITIES, namespace=namespace, entities=entities)
        ]
        survivors = sorted(set(entities) - set(erased_entities))
        if survivors:
            tx.run("refresh_cooccurrences", entities=survivors)

    targets = [memory_id, *cascaded, *erased_entities]
    tx.run("scrub_history", namespace=namespace, targets=targets, now=now)
    counts = {"facts": len(cascaded), "entities": len(erased_entities)}
    events = [history_event(namespace, memory_id, "erased", actor, now, reason=reason, metadata=counts)]
    events += [
        history_event(namespace, target, "erased", actor, now, metadata={"with": memory_id})
        for target in (*cascaded, *erased_entities)
    ]
    tx.run("record_history", rows=events)
    return EraseOutcome(memory_id, tuple(cascaded), tuple(erased_entities))
