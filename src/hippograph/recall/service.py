"""Recall (DESIGN §6): keyword and vector channels fused by RRF, authorized, hydrated, rendered.

The graph channel and the full scoring (retention, access boost, importance) come later; this
module already keeps the shape they slot into: channels return ids and scores only, nothing is
read before authorization, and a failing channel degrades instead of failing the call.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import asdict
from typing import Any

from hippograph.capture.validate import validate_namespace
from hippograph.errors import bad_input
from hippograph.memories import hydrate
from hippograph.recall.bundle import render_bundle
from hippograph.recall.fusion import reciprocal_rank_fusion
from hippograph.recall.keyword import fulltext_query
from hippograph.recall.request import (
    Channel,
    Degradation,
    RecallHit,
    RecallRequest,
    RecallResult,
)
from hippograph.runtime import Runtime
from hippograph.store import Transaction
from hippograph.timing import Stopwatch

log = logging.getLogger(__name__)

Ranked = list[tuple[str, float]]

# Channels over-fetch so that fusion and filters have enough to work with.
MIN_FETCH = 50
FETCH_FACTOR = 5
# The vector indexes span every namespace; ask for more neighbours than needed, then filter.
VECTOR_OVERSAMPLE = 4
MIN_COSINE = 0.3


def recall(runtime: Runtime, request: RecallRequest) -> RecallResult:
    _validate(runtime, request)
    watch = Stopwatch()
    fetch = max(MIN_FETCH, FETCH_FACTOR * request.limit)
    rankings: dict[Channel, Ranked] = {}
    degraded: list[Degradation] = []

    channel_runs: dict[Channel, Callable[[], Ranked]] = {
        Channel.KEYWORD: lambda: _keyword(runtime, request, fetch),
        Channel.VECTOR: lambda: _vector(runtime, request, fetch, watch),
    }
    for channel in sorted(request.channels):
        if channel not in channel_runs:
            degraded.append(Degradation(channel, "not available in this version"))
            continue
        with watch.stage(channel.value):
            try:
                rankings[channel] = channel_runs[channel]()
            except Exception as error:  # a channel may fail; recall must still answer
                log.warning("recall channel %s failed", channel, exc_info=True)
                degraded.append(Degradation(channel, f"failed: {type(error).__name__}"))

    with watch.stage("fuse"):
        fused = reciprocal_rank_fusion(rankings)
    with watch.stage("authorize"):
        allowed = runtime.store.read_in(lambda tx: _authorized(tx, request, [f.id for f in fused]))
        chosen = [f for f in fused if f.id in allowed][: request.limit]
    with watch.stage("hydrate"):
        memories = hydrate(runtime.store, request.namespace, [f.id for f in chosen])
        hits = [RecallHit(memories[f.id], f.score, f.channels) for f in chosen if f.id in memories]
    with watch.stage("touch"):
        _touch(runtime, request.namespace, [hit.memory.id for hit in hits])
    with watch.stage("render"):
        context = render_bundle(hits, [c.value for c in rankings], degraded)
    return RecallResult(hits, context, watch.timings, degraded)


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


def _keyword(runtime: Runtime, request: RecallRequest, fetch: int) -> Ranked:
    query = fulltext_query(request.query)
    if query is None:
        return []
    return _merged(
        runtime,
        "fulltext_search",
        ("episode_content", "fact_statement"),
        fetch,
        query=query,
        namespace=request.namespace,
        limit=fetch,
    )


def _vector(runtime: Runtime, request: RecallRequest, fetch: int, watch: Stopwatch) -> Ranked:
    with watch.stage("embed_query"):
        embedding = runtime.embedder.embed([request.query])[0]
    return _merged(
        runtime,
        "vector_search",
        ("episode_embedding", "fact_embedding"),
        fetch,
        embedding=embedding,
        k=fetch * VECTOR_OVERSAMPLE,
        # Both servers report a cosine index score as (1 + cos) / 2.
        min_score=(1 + MIN_COSINE) / 2,
        namespace=request.namespace,
        limit=fetch,
    )


def _merged(runtime: Runtime, query_name: str, indexes: Sequence[str], fetch: int, **params: Any) -> Ranked:
    """One channel over several indexes (episodes and facts): one ranking by score."""

    def read(tx: Transaction) -> Ranked:
        rows = [row for index in indexes for row in tx.run(query_name, index=runtime.store.index(index), **params)]
        return [(row["id"], row["score"]) for row in sorted(rows, key=lambda r: -r["score"])[:fetch]]

    return runtime.store.read_in(read)


def _authorized(tx: Transaction, request: RecallRequest, ids: list[str]) -> set[str]:
    if not ids:
        return set()
    params: dict[str, Any] = {
        key: (list(value) if isinstance(value, tuple) else value) for key, value in asdict(request.filters).items()
    }
    return {
        row["id"]
        for query in ("authorize_episodes", "authorize_facts")
        for row in tx.run(query, ids=ids, namespace=request.namespace, **params)
    }


def _touch(runtime: Runtime, namespace: str, ids: list[str]) -> None:
    if ids:
        now = runtime.clock()
        runtime.store.write(lambda tx: tx.run("touch_memories", ids=ids, namespace=namespace, at=now))
