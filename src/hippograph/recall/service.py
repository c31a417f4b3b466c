"""Recall (DESIGN §6): keyword, vector and graph channels fused by RRF, authorized, scored,
hydrated, rendered.

Channels return ids and scores only; nothing is read before authorization, and a failing channel
degrades recall instead of failing it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from typing import Any, cast

from hippograph import metrics
from hippograph.capture.fields import as_stored
from hippograph.capture.validate import validate_namespace
from hippograph.embedding import Vector
from hippograph.errors import bad_input
from hippograph.lifecycle.retention import EPISODE_KIND
from hippograph.memories import episodes_in, facts_in, memory_from_row
from hippograph.model import Episode, Fact, Memory
from hippograph.priority import Priority
from hippograph.recall.activation import ActivationParams
from hippograph.recall.bundle import render_bundle
from hippograph.recall.fusion import Fused, Ranked, reciprocal_rank_fusion
from hippograph.recall.graph import GraphOptions, GraphQuery, graph_channel, query_seeds
from hippograph.recall.keyword import fulltext_query
from hippograph.recall.modes import PRESETS, ModePreset
from hippograph.recall.request import (
    Channel,
    Degradation,
    RecallHit,
    RecallRequest,
    RecallResult,
    StageTiming,
)
from hippograph.recall.scoring import ACTIVE, Candidate, Scored, score
from hippograph.recall.vector import VectorQuery, vector_channel
from hippograph.runtime import Runtime
from hippograph.store import Transaction
from hippograph.store.search import scoped_query
from hippograph.timing import Stopwatch

log = logging.getLogger(__name__)

# Channels over-fetch so that fusion and filters have enough to work with: twice the limit, at
# least 30. A hit below that in one channel adds less than 1 / (k + 2·limit) and rarely reaches
# the top, while every extra id costs a lookup at authorization (measured in docs/benchmarks.md,
# Recall on LoCoMo).
MIN_FETCH = 30
FETCH_FACTOR = 2
MIN_COSINE = 0.3
MAX_CORE = 10


def recall(runtime: Runtime, request: RecallRequest) -> RecallResult:
    _validate(runtime, request)
    watch = Stopwatch()
    preset = PRESETS[request.mode]
    fetch = max(MIN_FETCH, FETCH_FACTOR * request.limit)
    now = runtime.clock()
    rankings, degraded = _run_channels(runtime, request, preset, fetch, now, watch)

    with watch.stage("fuse"):
        fused = reciprocal_rank_fusion(rankings, k=runtime.settings.rrf_k, weights=preset.weights)

    def read(tx: Transaction) -> tuple[list[Scored], list[str], dict[str, Memory], list[StageTiming]]:
        # Timed on a watch of its own: the driver may run this again on a transient failure.
        inner = Stopwatch()
        with inner.stage("authorize"):
            visible = _authorized(tx, request, fused, fetch)
        with inner.stage("score"):
            scored = score(
                fused,
                visible.candidates,
                preset,
                now=now,
                limit=request.limit,
                include_archived=request.include_archived,
            )
        with inner.stage("hydrate"):
            core_ids, memories = _hydrate_with_core(tx, request.namespace, scored, visible)
        return scored, core_ids, memories, inner.timings

    scored, core_ids, memories, read_timings = runtime.store.read_in(read)
    watch.timings += read_timings
    hits = [
        RecallHit(memories[s.id], s.score, s.channels, s.explanation if request.explain else None)
        for s in scored
        if s.id in memories
    ]
    core = [memories[i] for i in core_ids if i in memories]
    if request.count_access:
        with watch.stage("touch"):
            _touch(runtime, request.namespace, [hit.memory.id for hit in hits])
    with watch.stage("render"):
        context = render_bundle(hits, core, [c.value for c in rankings], degraded)
    metrics.recall_stages(watch.timings)
    return RecallResult(hits, context, watch.timings, degraded)


def _run_channels(
    runtime: Runtime, request: RecallRequest, preset: ModePreset, fetch: int, now: datetime, watch: Stopwatch
) -> tuple[dict[Channel, list[Ranked]], list[Degradation]]:
    """Each requested channel's ranking; a channel that fails is reported, not raised."""
    rankings: dict[Channel, list[Ranked]] = {}
    degraded: list[Degradation] = []
    # The query's embedding and the entities it names are worked out while the keyword channel
    # runs: ONNX Runtime and the store's engine each take a core and release the GIL.
    pool = runtime.query_threads
    wanted = request.channels
    embedding = pool.submit(runtime.embedder.embed_query, request.query) if Channel.VECTOR in wanted else None
    named = pool.submit(query_seeds, runtime, request.namespace, request.query) if Channel.GRAPH in wanted else None

    def vector() -> list[Ranked]:
        assert embedding is not None
        with watch.stage("embed_query"):
            vector = embedding.result()
        return _vector(runtime, request, fetch, vector)

    def graph() -> list[Ranked]:
        assert named is not None
        text_hits = reciprocal_rank_fusion(rankings, k=runtime.settings.rrf_k)[: runtime.settings.graph_text_hits]
        query = GraphQuery(
            request.namespace,
            as_of=request.as_of or now,
            known_at=request.known_at or now,
            limit=fetch,
            options=_graph_options(runtime, preset),
        )
        return graph_channel(runtime, query, named.result(), [hit.id for hit in text_hits])

    runs: dict[Channel, Callable[[], list[Ranked]]] = {
        Channel.KEYWORD: lambda: _keyword(runtime, request, fetch),
        Channel.VECTOR: vector,
        Channel.GRAPH: graph,
    }
    # In this order: the graph channel starts from the other two's hits too.
    for channel, run in runs.items():
        if channel not in request.channels:
            continue
        with watch.stage(channel.value):
            try:
                rankings[channel] = run()
            except Exception as error:  # a channel may fail; recall must still answer
                log.warning("recall channel %s failed", channel, exc_info=True)
                degraded.append(Degradation(channel, f"failed: {type(error).__name__}"))
    return rankings, degraded


def _validate(runtime: Runtime, request: RecallRequest) -> None:
    limits = runtime.settings.limits
    validate_namespace(request.namespace)
    if not request.query.strip():
        raise bad_input("query is empty", field="query")
    if len(request.query) > limits.max_query_chars:
        raise bad_input(f"query is longer than {limits.max_query_chars} characters", field="query")
    if not 1 <= request.limit <= limits.max_recall_limit:
        raise bad_input(f"limit must be between 1 and {limits.max_recall_limit}", field="limit")
    if not request.channels:
        raise bad_input("at least one channel is needed", field="channels")
    f = request.filters
    if f.since is not None and f.until is not None and f.since >= f.until:
        raise bad_input("since must be before until", field="filters")


def _graph_options(runtime: Runtime, preset: ModePreset) -> GraphOptions:
    s = runtime.settings
    activation = ActivationParams(
        decay=s.activation_decay,
        typed_weight=s.activation_typed_weight,
        cooccurs_weight=s.activation_cooccurs_weight,
        strength_norm=s.activation_strength_norm,
        # A mode may look further than configured, never less far.
        depth=max(s.activation_depth, preset.activation_depth),
        threshold=s.activation_threshold,
    )
    return GraphOptions(
        s.graph_propagation,
        s.graph_damping,
        s.graph_hub_share,
        s.graph_concepts,
        s.graph_idf,
        s.graph_hops,
        s.graph_next_turns,
        activation,
    )


def _keyword(runtime: Runtime, request: RecallRequest, fetch: int) -> list[Ranked]:
    terms = fulltext_query(request.query)
    if terms is None:
        return []
    return _search(
        runtime,
        "fulltext_search",
        ("episode_search", "fact_search"),
        query=scoped_query(request.namespace, terms),
        namespace=request.namespace,
        limit=fetch,
    )


def _vector(runtime: Runtime, request: RecallRequest, fetch: int, embedding: Vector) -> list[Ranked]:
    return vector_channel(runtime.store, VectorQuery(request.namespace, embedding, fetch, MIN_COSINE))


def _search(runtime: Runtime, query_name: str, indexes: Sequence[str], **params: Any) -> list[Ranked]:
    """One channel over several indexes (episodes and facts), one ranking by score."""
    names = [runtime.store.index(index) for index in indexes]
    rows = runtime.store.read_listed(query_name, indexes=names, **params)
    return [Ranked(row["id"], row["score"], row["label"]) for row in rows]


# Authorization by label: the statement, and what its maps build.
_AUTHORIZE: tuple[tuple[str, type[Episode | Fact]], ...] = (
    ("authorize_episodes", Episode),
    ("authorize_facts", Fact),
)


@dataclass(frozen=True)
class Visible:
    """The fused hits the caller may see: what scoring needs of each, and the memory itself."""

    candidates: dict[str, Candidate]
    memories: dict[str, Memory]


def _authorized(tx: Transaction, request: RecallRequest, fused: Sequence[Fused], wanted: int) -> Visible:
    """The fused hits the caller may see, looked up best first, a page at a time, until ``wanted``
    have passed: further down, fusion scores are too small to reach the limit (with k = 5, one
    channel's 40th hit scores 1/45 against 1/6 for its first), and each lookup costs the same
    whether the id passes or not. The lookup that authorizes a memory also reads it, so the hits
    need no second read."""
    params: dict[str, Any] = {
        key: (list(value) if isinstance(value, tuple) else value) for key, value in asdict(request.filters).items()
    }
    params |= {name: as_stored(getattr(request.filters, name)) for name in ("tags", "agents", "sessions")}
    params |= {
        "as_of": request.as_of,
        "known_at": request.known_at,
        "include_superseded": request.include_superseded,
    }
    visible = Visible({}, {})
    for start in range(0, len(fused), wanted):
        page = fused[start : start + wanted]
        for query, memory_type in _AUTHORIZE:
            ids = [f.id for f in page if f.label == memory_type.__name__]
            for row in tx.run_listed(query, ids=ids, namespace=request.namespace, **params) if ids else []:
                memory = memory_from_row(memory_type, row)
                visible.memories[memory.id] = memory
                visible.candidates[memory.id] = _candidate(memory, row.get("replaces", ()))
        if len(visible.candidates) >= wanted:
            break
    return visible


def _candidate(memory: Episode | Fact, replaces: Sequence[str] = ()) -> Candidate:
    """What scoring needs of an authorized memory: an episode is always active, lives in a
    session and dates from its capture; a fact has a status and provenance, and dates from when
    it was recorded."""
    supported_by: tuple[str, ...]
    if isinstance(memory, Episode):
        kind, created_at, status, session, supported_by = EPISODE_KIND, memory.captured_at, ACTIVE, memory.session, ()
    else:
        kind, created_at, status, session = memory.kind, memory.recorded_at, memory.status, None
        supported_by = tuple(memory.supported_by)
    return Candidate(
        id=memory.id,
        kind=kind,
        importance=memory.importance,
        pinned=memory.pinned,
        access_count=memory.access_count,
        last_accessed_at=memory.last_accessed_at,
        created_at=created_at,
        status=status,
        session=session,
        supported_by=supported_by,
        replaces=tuple(replaces),
    )


def _hydrate_with_core(
    tx: Transaction, namespace: str, scored: Sequence[Scored], visible: Visible
) -> tuple[list[str], dict[str, Memory]]:
    """The hits, with the episodes that support the fact hits, and the namespace's core facts, read
    in the transaction that authorized the hits: a client that shows a fact's provenance needs no
    second request, and sees it as of the same snapshot as the fact. Only the hits' supporters are
    read, not every candidate's: most candidates never reach the limit."""
    core_ids = [row["id"] for row in tx.run("core_facts", namespace=namespace, limit=MAX_CORE)]
    supporting = dict.fromkeys(episode for s in scored for episode in visible.candidates[s.id].supported_by)
    found: dict[str, Memory] = dict(visible.memories)
    found |= episodes_in(tx, namespace, [i for i in supporting if i not in found])
    found |= facts_in(tx, namespace, [i for i in core_ids if i not in found])
    for hit in scored:
        found[hit.id] = _with_supporting(found[hit.id], found)
    return core_ids, found


def _with_supporting(memory: Memory, found: Mapping[str, Memory]) -> Memory:
    if not isinstance(memory, Fact) or any(episode not in found for episode in memory.supported_by):
        return memory
    return replace(memory, supporting=tuple(cast(Episode, found[episode]) for episode in memory.supported_by))


def _touch(runtime: Runtime, namespace: str, ids: list[str]) -> None:
    if ids:
        now = runtime.clock()
        # Part of a recall, which waits for it: ahead of the writes of captures and consolidation.
        runtime.store.write(
            lambda tx: tx.run("touch_memories", ids=ids, namespace=namespace, at=now), priority=Priority.INTERACTIVE
        )
