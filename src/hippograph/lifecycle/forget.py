"""Soft forgetting (docs/memory-management.md): PREVIEW shows what a forget would take and signs that set; EXECUTE
takes it, with a reason, and above a threshold only with the preview's token. Forgotten memories
leave listings, recall and the graph as currently known at once, can be recovered within the
retention window, and are erased by the sweeper after it. Facts all of whose supporting episodes
are forgotten go with them, and so do the typed edges of forgotten facts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from hippograph.kernel.config import LifecycleSettings, Limits
from hippograph.kernel.errors import ErrorCode, HippographError, bad_input
from hippograph.kernel.events import EventKind, MemoryEvent
from hippograph.kernel.filters import MemoryFilters, filter_params, validate_filters
from hippograph.kernel.model import Episode, Memory
from hippograph.kernel.validation import optional_reason, require_reason, validate_namespace
from hippograph.lifecycle import token
from hippograph.store import Store, Transaction
from hippograph.store.changes import with_changes
from hippograph.store.history import history_event
from hippograph.store.memories import get_memory, hydrate_in
from hippograph.store.promotions import review_quietly
from hippograph.store.rows import (
    FORGET_CANDIDATES_BY_ID,
    FORGET_UNSUPPORTED_FACTS,
    MEMORY_IDS_IN_NAMESPACE,
    RECOVER_FACTS_WITH,
    SCOPE_AND_HITS,
    SET_FORGOTTEN,
)
from hippograph.store.search import memory_searches

__all__ = [
    "ForgetMode",
    "ForgetOutcome",
    "ForgetRequest",
    "check_confirmation",
    "check_recoverable",
    "forget",
    "forget_in",
    "preview_forget",
    "recover",
    "validate_forget",
]


class ForgetMode(StrEnum):
    PREVIEW = "PREVIEW"
    EXECUTE = "EXECUTE"


@dataclass(frozen=True)
class ForgetRequest:
    namespace: str = "default"
    mode: ForgetMode = ForgetMode.PREVIEW
    ids: tuple[str, ...] | None = None
    query: str | None = None
    filters: MemoryFilters = MemoryFilters()
    reason: str | None = None
    token: str | None = None
    actor: str = "api"


@dataclass(frozen=True)
class ForgetOutcome:
    mode: ForgetMode
    candidates: tuple[str, ...]
    token: str | None  # preview: confirms exactly these candidates until expires_at
    expires_at: datetime | None
    confirmation_required: bool  # whether executing needs the token
    forgotten: tuple[str, ...] = ()  # execute: the candidates and the facts that went with them


def forget(
    store: Store, clock: Callable[[], datetime], lifecycle: LifecycleSettings, limits: Limits, request: ForgetRequest
) -> ForgetOutcome:
    validate_namespace(request.namespace)
    validate_forget(limits, request)
    reason = require_reason(request.reason) if request.mode is ForgetMode.EXECUTE else None
    now = clock()
    key = token.signing_key(lifecycle, store)
    threshold = lifecycle.forget_confirm_threshold

    if request.mode is ForgetMode.PREVIEW:
        candidates = store.read_in(lambda tx: _candidates(store, limits, tx, request))
        return preview_forget(key, request.namespace, candidates, now, lifecycle)

    def execute(tx: Transaction) -> tuple[tuple[str, ...], tuple[str, ...]]:
        candidates = _candidates(store, limits, tx, request)
        check_confirmation(key, request.namespace, candidates, request.token, threshold, now)
        return candidates, forget_in(tx, request.namespace, candidates, now, request.actor, reason or "")

    def events(done: tuple[tuple[str, ...], tuple[str, ...]]) -> list[MemoryEvent]:
        return [
            MemoryEvent(EventKind.FORGOTTEN, request.namespace, memory_id, now, request.actor, reason=reason)
            for memory_id in done[1]
        ]

    candidates, forgotten = store.write(with_changes(execute, events))
    review_quietly(store, [request.namespace], now)
    return ForgetOutcome(ForgetMode.EXECUTE, candidates, None, None, len(candidates) > threshold, forgotten)


def preview_forget(
    key: bytes, namespace: str, candidates: tuple[str, ...], now: datetime, lifecycle: LifecycleSettings
) -> ForgetOutcome:
    """What a forget would take, and the token that confirms exactly that set."""
    signed, expires_at = token.offer(key, namespace, candidates, now, lifecycle.forget_token_ttl_s)
    return ForgetOutcome(
        ForgetMode.PREVIEW, candidates, signed, expires_at, len(candidates) > lifecycle.forget_confirm_threshold
    )


def check_confirmation(
    key: bytes, namespace: str, candidates: tuple[str, ...], given: str | None, threshold: int, now: datetime
) -> None:
    """Refuse a forget of more than ``threshold`` memories without its preview's token, and any
    forget whose token (needed or not) has expired or confirms another set."""
    if given is None and len(candidates) <= threshold:
        return
    if given is None:
        raise HippographError(
            ErrorCode.CONFIRMATION_REQUIRED,
            f"this forget takes {len(candidates)} memories (more than {threshold}); "
            "run it as PREVIEW and pass its token",
            count=len(candidates),
        )
    if not token.verify(key, namespace, candidates, given, now):
        raise HippographError(
            ErrorCode.CONFIRMATION_REQUIRED,
            "the token has expired or confirms other memories than these; preview again",
            count=len(candidates),
        )


def forget_in(
    tx: Transaction, namespace: str, ids: Sequence[str], now: datetime, actor: str, reason: str
) -> tuple[str, ...]:
    """Forget these memories, and the facts left with no unforgotten support; all that went."""
    if not ids:
        return ()
    tx.writes_graph_of([namespace])
    tx.run(SET_FORGOTTEN, namespace=namespace, ids=list(ids), at=now)
    found = hydrate_in(tx, namespace, ids)
    episodes = [memory_id for memory_id in ids if isinstance(found.get(memory_id), Episode)]
    along = [row["id"] for row in tx.run(FORGET_UNSUPPORTED_FACTS, episodes=episodes, at=now)] if episodes else []
    facts = [memory_id for memory_id in ids if memory_id not in episodes] + along
    if facts:
        tx.run("forget_fact_relations", facts=facts, at=now)
    events = [history_event(namespace, memory_id, "forgotten", actor, now, reason=reason) for memory_id in ids]
    events += [
        history_event(namespace, fact_id, "forgotten", actor, now, reason=reason, metadata={"with_episodes": True})
        for fact_id in along
    ]
    tx.run("record_history", rows=events)
    return (*ids, *along)


def recover(
    store: Store,
    clock: Callable[[], datetime],
    lifecycle: LifecycleSettings,
    namespace: str,
    memory_id: str,
    reason: str | None,
    actor: str,
) -> Memory:
    """Bring a forgotten memory back while the retention window lasts (and the facts it took along)."""
    validate_namespace(namespace)
    why = optional_reason(reason)
    now = clock()

    def write(tx: Transaction) -> tuple[str, ...]:
        tx.writes_graph_of([namespace])
        memory = hydrate_in(tx, namespace, [memory_id]).get(memory_id)
        if memory is None:
            raise HippographError(ErrorCode.NOT_FOUND, f"no memory {memory_id!r} in namespace {namespace!r}")
        check_recoverable(memory_id, memory.forgotten_at, lifecycle.recover_window_days, now)
        tx.run(SET_FORGOTTEN, namespace=namespace, ids=[memory_id], at=None)
        along = [row["id"] for row in tx.run(RECOVER_FACTS_WITH, namespace=namespace, episode=memory_id)]
        facts = along if isinstance(memory, Episode) else [memory_id]
        if facts:
            tx.run("recover_fact_relations", facts=facts)
        events = [
            history_event(namespace, target, "recovered", actor, now, reason=why) for target in (memory_id, *along)
        ]
        tx.run("record_history", rows=events)
        return (memory_id, *along)

    store.write(
        with_changes(
            write,
            lambda recovered: [
                MemoryEvent(EventKind.RECOVERED, namespace, target, now, actor, reason=why) for target in recovered
            ],
        )
    )
    return get_memory(store, namespace, memory_id)


def check_recoverable(memory_id: str, forgotten_at: datetime | None, window_days: float, now: datetime) -> None:
    """Refuse to recover a memory that is not forgotten, or was forgotten longer ago than the window."""
    if forgotten_at is None:
        raise bad_input(f"{memory_id} is not forgotten", field="id")
    if forgotten_at + timedelta(days=window_days) < now:
        raise bad_input(
            f"{memory_id} was forgotten more than {window_days:g} days ago; it is past recovery and will be erased",
            field="id",
        )


def _candidates(store: Store, limits: Limits, tx: Transaction, request: ForgetRequest) -> tuple[str, ...]:
    """The memories a request selects, sorted; by ids, by a full-text query, or by filters alone.
    Pinned memories are only ever taken when named by id."""
    limit = limits.max_forget_candidates
    if request.ids is not None:
        ids = list(dict.fromkeys(request.ids))
    elif request.query is not None:
        ids = _search(store, tx, request.namespace, request.query, limit)
    else:
        ids = [row["id"] for row in tx.run(MEMORY_IDS_IN_NAMESPACE, namespace=request.namespace)]
    rows = tx.run(
        FORGET_CANDIDATES_BY_ID,
        namespace=request.namespace,
        ids=ids,
        include_pinned=request.ids is not None,
        limit=limit + 1,
        **filter_params(request.filters),
    )
    if len(rows) > limit:
        raise HippographError(
            ErrorCode.LIMIT_EXCEEDED, f"more than {limit} memories match; narrow the selection", limit=limit
        )
    return tuple(row["id"] for row in rows)


def _search(store: Store, tx: Transaction, namespace: str, query: str, limit: int) -> list[str]:
    searches = memory_searches(namespace, query)
    if not searches:
        raise bad_input("the query has no searchable words", field="query")
    listed = [{"index": store.index(index), "query": terms} for index, terms in searches]
    [found] = tx.run(SCOPE_AND_HITS, searches=listed, namespace=namespace, limit=limit)
    return [hit["id"] for hit in found["hits"]]


def validate_forget(limits: Limits, request: ForgetRequest) -> None:
    """Refuse a request that selects nothing, too much, or by a query or filters that cannot be."""
    if request.ids is None and request.query is None and not request.filters.given():
        raise bad_input("say what to forget: ids, a query or filters", field="input")
    if request.ids is not None and not request.ids:
        raise bad_input("ids is empty", field="ids")
    limit = limits.max_forget_candidates
    if request.ids is not None and len(request.ids) > limit:
        raise HippographError(ErrorCode.LIMIT_EXCEEDED, f"at most {limit} ids per forget", limit=limit)
    if request.query is not None and len(request.query) > limits.max_query_chars:
        raise bad_input("the query is too long", field="query")
    validate_filters(request.filters)
