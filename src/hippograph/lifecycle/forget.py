"""Soft forgetting (docs/memory-management.md): PREVIEW shows what a forget would take and signs that set; EXECUTE
takes it, with a reason, and above a threshold only with the preview's token. Forgotten memories
leave listings, recall and the graph as currently known at once, can be recovered within the
retention window, and are erased by the sweeper after it. Facts all of whose supporting episodes
are forgotten go with them, and so do the typed edges of forgotten facts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from hippograph.kernel.errors import ErrorCode, HippographError, bad_input
from hippograph.kernel.events import EventKind, MemoryEvent
from hippograph.kernel.filters import MemoryFilters, filter_params, validate_filters
from hippograph.kernel.lucene import fulltext_query
from hippograph.kernel.model import Episode, Memory
from hippograph.kernel.validation import optional_reason, require_reason, validate_namespace
from hippograph.lifecycle import token
from hippograph.runtime import Runtime
from hippograph.store import Transaction
from hippograph.store.changes import with_changes
from hippograph.store.history import history_event
from hippograph.store.memories import get_memory, hydrate_in
from hippograph.store.promotions import review_quietly
from hippograph.store.rows import (
    FORGET_CANDIDATES_BY_ID,
    FORGET_UNSUPPORTED_FACTS,
    FULLTEXT_SEARCH,
    MEMORY_IDS_IN_NAMESPACE,
    RECOVER_FACTS_WITH,
    SET_FORGOTTEN,
)
from hippograph.store.search import scoped_query

__all__ = ["ForgetMode", "ForgetOutcome", "ForgetRequest", "forget", "forget_in", "recover"]


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


def forget(runtime: Runtime, request: ForgetRequest) -> ForgetOutcome:
    validate_namespace(request.namespace)
    _validate(runtime, request)
    reason = require_reason(request.reason) if request.mode is ForgetMode.EXECUTE else None
    now = runtime.clock()
    key = token.signing_key(runtime.settings.lifecycle, runtime.store)
    threshold = runtime.settings.lifecycle.forget_confirm_threshold

    if request.mode is ForgetMode.PREVIEW:
        candidates = runtime.store.read_in(lambda tx: _candidates(runtime, tx, request))
        expires_at = now + timedelta(seconds=runtime.settings.lifecycle.forget_token_ttl_s)
        signed = token.sign(key, request.namespace, candidates, expires_at) if candidates else None
        return ForgetOutcome(
            ForgetMode.PREVIEW, candidates, signed, expires_at if signed else None, len(candidates) > threshold
        )

    def execute(tx: Transaction) -> tuple[tuple[str, ...], tuple[str, ...]]:
        candidates = _candidates(runtime, tx, request)
        needs_token = len(candidates) > threshold
        if request.token is not None or needs_token:
            if request.token is None:
                raise HippographError(
                    ErrorCode.CONFIRMATION_REQUIRED,
                    f"this forget takes {len(candidates)} memories (more than {threshold}); "
                    "run it as PREVIEW and pass its token",
                    count=len(candidates),
                )
            if not token.verify(key, request.namespace, candidates, request.token, now):
                raise HippographError(
                    ErrorCode.CONFIRMATION_REQUIRED,
                    "the token has expired or confirms other memories than these; preview again",
                    count=len(candidates),
                )
        return candidates, forget_in(tx, request.namespace, candidates, now, request.actor, reason or "")

    def events(done: tuple[tuple[str, ...], tuple[str, ...]]) -> list[MemoryEvent]:
        return [
            MemoryEvent(EventKind.FORGOTTEN, request.namespace, memory_id, now, request.actor, reason=reason)
            for memory_id in done[1]
        ]

    candidates, forgotten = runtime.store.write(with_changes(execute, events))
    review_quietly(runtime.store, [request.namespace], now)
    return ForgetOutcome(ForgetMode.EXECUTE, candidates, None, None, len(candidates) > threshold, forgotten)


def forget_in(
    tx: Transaction, namespace: str, ids: Sequence[str], now: datetime, actor: str, reason: str
) -> tuple[str, ...]:
    """Forget these memories, and the facts left with no unforgotten support; all that went."""
    if not ids:
        return ()
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


def recover(runtime: Runtime, namespace: str, memory_id: str, reason: str | None, actor: str) -> Memory:
    """Bring a forgotten memory back while the retention window lasts (and the facts it took along)."""
    validate_namespace(namespace)
    why = optional_reason(reason)
    now = runtime.clock()
    window = timedelta(days=runtime.settings.lifecycle.recover_window_days)

    def write(tx: Transaction) -> tuple[str, ...]:
        memory = hydrate_in(tx, namespace, [memory_id]).get(memory_id)
        if memory is None:
            raise HippographError(ErrorCode.NOT_FOUND, f"no memory {memory_id!r} in namespace {namespace!r}")
        if memory.forgotten_at is None:
            raise bad_input(f"{memory_id} is not forgotten", field="id")
        if memory.forgotten_at + window < now:
            raise bad_input(
                f"{memory_id} was forgotten more than {runtime.settings.lifecycle.recover_window_days:g} days ago; "
                "it is past recovery and will be erased",
                field="id",
            )
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

    runtime.store.write(
        with_changes(
            write,
            lambda recovered: [
                MemoryEvent(EventKind.RECOVERED, namespace, target, now, actor, reason=why) for target in recovered
            ],
        )
    )
    return get_memory(runtime.store, namespace, memory_id)


def _candidates(runtime: Runtime, tx: Transaction, request: ForgetRequest) -> tuple[str, ...]:
    """The memories a request selects, sorted; by ids, by a full-text query, or by filters alone.
    Pinned memories are only ever taken when named by id."""
    limit = runtime.settings.limits.max_forget_candidates
    if request.ids is not None:
        ids = list(dict.fromkeys(request.ids))
    elif request.query is not None:
        ids = _search(runtime, tx, request.namespace, request.query, limit)
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


def _search(runtime: Runtime, tx: Transaction, namespace: str, query: str, limit: int) -> list[str]:
    terms = fulltext_query(query)
    if terms is None:
        raise bad_input("the query has no searchable words", field="query")
    query = scoped_query(namespace, terms)
    searches = [{"index": runtime.store.index(index), "query": query} for index in ("episode_search", "fact_search")]
    rows = tx.run_listed(FULLTEXT_SEARCH, searches=searches, namespace=namespace, limit=limit)
    return [row["id"] for row in rows]


def _validate(runtime: Runtime, request: ForgetRequest) -> None:
    if request.ids is None and request.query is None and not request.filters.given():
        raise bad_input("say what to forget: ids, a query or filters", field="input")
    if request.ids is not None and not request.ids:
        raise bad_input("ids is empty", field="ids")
    limit = runtime.settings.limits.max_forget_candidates
    if request.ids is not None and len(request.ids) > limit:
        raise HippographError(ErrorCode.LIMIT_EXCEEDED, f"at most {limit} ids per forget", limit=limit)
    if request.query is not None and len(request.query) > runtime.settings.limits.max_query_chars:
        raise bad_input("the query is too long", field="query")
    validate_filters(request.filters)
