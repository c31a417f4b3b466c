"""Recall (docs/architecture.md, Recall): keyword, hint, vector, context and graph channels fused by RRF, authorized, scored
(within the question's time window: window.py), hydrated, rendered.

This module runs the stages in order; each has a module of its own: channels.py, fusion.py,
authorize.py, scoring.py, hydrate.py, bundle.py.
"""

from __future__ import annotations

from hippograph.kernel import metrics
from hippograph.kernel.config import Limits
from hippograph.kernel.errors import bad_input
from hippograph.kernel.filters import validate_filters
from hippograph.kernel.model import Memory
from hippograph.kernel.timing import StageTiming, Stopwatch
from hippograph.kernel.validation import validate_namespace
from hippograph.recall.authorize import authorized
from hippograph.recall.bundle import render_bundle
from hippograph.recall.channels import run_channels, supporting
from hippograph.recall.fusion import reciprocal_rank_fusion
from hippograph.recall.hydrate import hydrate_with_core
from hippograph.recall.modes import PRESETS
from hippograph.recall.parts import RecallParts
from hippograph.recall.request import RecallHit, RecallRequest, RecallResult
from hippograph.recall.scoring import Scored, Window, asks_about_past, named_speaker, replacements, score
from hippograph.recall.window import request_window
from hippograph.store import Transaction

# Channels over-fetch so that fusion and filters have enough to work with: twice the limit, at
# least 30. A hit below that in one channel adds less than 1 / (k + 2·limit) and rarely reaches
# the top, while every extra id costs a lookup at authorization (measured in docs/benchmarks.md,
# Recall on LoCoMo).
MIN_FETCH = 30
FETCH_FACTOR = 2


def recall(parts: RecallParts, request: RecallRequest) -> RecallResult:
    validate_recall(parts.limits, request)
    settings = parts.settings
    watch = Stopwatch()
    preset = PRESETS[request.mode]
    fetch = fetch_size(request.limit)
    now = parts.clock()
    # The question's own time words are read (a spaCy pass) while the channels run.
    in_window = parts.query_threads.submit(request_window, parts.extractor.time_of, settings.time_window, request, now)
    rankings, degraded, names = run_channels(parts, request, preset, fetch, now, watch)

    with watch.stage("fuse"):
        fused = reciprocal_rank_fusion(
            rankings, k=settings.rrf_k, weights=preset.weights, supporting=supporting(settings)
        )

    past = asks_about_past(request, now)
    span, use = in_window.result()
    window = Window(span, use) if span is not None else None

    def read(tx: Transaction) -> tuple[list[Scored], list[str], dict[str, Memory], dict[str, str], list[StageTiming]]:
        # Timed on a watch of its own: the driver may run this again on a transient failure.
        inner = Stopwatch()
        with inner.stage("authorize"):
            visible = authorized(tx, request, fused, fetch)
        with inner.stage("score"):
            scored = score(
                fused,
                visible.candidates,
                preset,
                now=now,
                limit=request.limit,
                include_archived=request.include_archived,
                speaker=named_speaker(names, visible.candidates, settings.named_speaker_factor),
                current_first=settings.current_first and not past,
                window=window,
            )
        with inner.stage("hydrate"):
            core_ids, memories = hydrate_with_core(tx, request.namespace, scored, visible)
        return scored, core_ids, memories, replacements(scored, visible.candidates), inner.timings

    # Each statement in a transaction of its own (read_each): an explicit one would cost a BEGIN
    # and a ROLLBACK round trip more and buy nothing, since both servers read committed data
    # statement by statement inside a transaction too. Hydration reads only what authorization
    # did not bring, and copes with a memory forgotten in between as with any it may not see.
    scored, core_ids, memories, replaced, read_timings = parts.store.read_each(read)
    watch.timings += read_timings
    hits = [
        RecallHit(memories[s.id], s.score, s.channels, s.explanation if request.explain else None)
        for s in scored
        if s.id in memories
    ]
    core = [memories[i] for i in core_ids if i in memories]
    if request.count_access:
        parts.access.record(request.namespace, [hit.memory.id for hit in hits], parts.clock())
    with watch.stage("render"):
        context = render_bundle(hits, core, [c.value for c in rankings], degraded, replaced)
    metrics.recall_stages(watch.timings)
    return RecallResult(hits, context, watch.timings, degraded, request)


def fetch_size(limit: int) -> int:
    """How many hits each channel fetches for a request of ``limit`` hits."""
    return max(MIN_FETCH, FETCH_FACTOR * limit)


def validate_recall(limits: Limits, request: RecallRequest) -> None:
    """Refuse a request with no namespace, query or channel, a query or limit out of bounds, bad
    filters, or a window that ends before it starts."""
    validate_namespace(request.namespace)
    if not request.query.strip():
        raise bad_input("query is empty", field="query")
    if len(request.query) > limits.max_query_chars:
        raise bad_input(f"query is longer than {limits.max_query_chars} characters", field="query")
    if not 1 <= request.limit <= limits.max_recall_limit:
        raise bad_input(f"limit must be between 1 and {limits.max_recall_limit}", field="limit")
    if not request.channels:
        raise bad_input("at least one channel is needed", field="channels")
    validate_filters(request.filters)
    during = request.during
    if during is not None and during.start is not None and during.end is not None and during.start >= during.end:
        raise bad_input("during: start must be before end", field="during")
