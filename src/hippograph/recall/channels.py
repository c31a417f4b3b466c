"""Recall's channels for one request: keyword, hint, vector, context and graph, each returning ids and
scores only (nothing is read before authorization). A failing channel degrades recall instead of
failing it."""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import replace
from datetime import datetime

from hippograph.kernel.config import ActivationParams
from hippograph.kernel.lucene import fulltext_query
from hippograph.kernel.text.stems import stems
from hippograph.kernel.timing import Stopwatch
from hippograph.recall.fusion import Ranked, reciprocal_rank_fusion
from hippograph.recall.graph import GraphQuery, QuerySeeds, graph_channel, query_seeds
from hippograph.recall.modes import ModePreset
from hippograph.recall.request import Channel, Degradation, RecallRequest
from hippograph.runtime import Runtime
from hippograph.store.rows import FULLTEXT_SEARCH
from hippograph.store.search import scoped_query
from hippograph.store.vectors import CONTEXTS, KINDS, VectorQuery, vector_channels

log = logging.getLogger(__name__)

MIN_COSINE = 0.3


def run_channels(
    runtime: Runtime, request: RecallRequest, preset: ModePreset, fetch: int, now: datetime, watch: Stopwatch
) -> tuple[dict[Channel, list[Ranked]], list[Degradation], tuple[str, ...]]:
    """Each requested channel's ranking, and the names the query spells when the graph channel or
    the speaker prior read them; a channel that fails is reported, not raised."""
    rankings: dict[Channel, list[Ranked]] = {}
    degraded: list[Degradation] = []
    pool = runtime.query_threads
    wanted = request.channels
    # The speaker prior reads the names the query spells even when the graph channel is off.
    reads_names = Channel.GRAPH in wanted or runtime.settings.recall.named_speaker_factor < 1
    named = pool.submit(query_seeds, runtime, request.namespace, request.query) if reads_names else None

    def attempt(channel: Channel, run: Callable[[], list[Ranked]]) -> list[Ranked] | Degradation:
        with watch.stage(channel.value):
            try:
                return run()
            except Exception as error:  # a channel may fail; recall must still answer
                log.warning("recall channel %s failed", channel, exc_info=True)
                return Degradation(channel, f"failed: {type(error).__name__}")

    # The vector and context channels rank the namespace against the query's embedding in one
    # pass (store/vectors.py): in a pool thread, which first embeds the query, while this thread
    # runs the keyword channel. A failure (of the embedding too) degrades both.
    searched = [
        channel
        for channel, on in ((Channel.VECTOR, True), (Channel.CONTEXT, runtime.settings.recall.context_channel))
        if on and channel in wanted
    ]

    def embed_then_vectors() -> dict[Channel, list[Ranked] | Degradation]:
        try:
            with watch.stage("embed_query"):
                embedding = runtime.embedder.embed_query(request.query)
            kinds = {Channel.VECTOR: KINDS, Channel.CONTEXT: (CONTEXTS,)}
            queries = [VectorQuery(request.namespace, embedding, fetch, MIN_COSINE, kinds[c]) for c in searched]
            with watch.stage(searched[0].value):
                return dict(zip(searched, vector_channels(runtime.store, queries), strict=True))
        except Exception as error:  # a channel may fail; recall must still answer
            log.warning("recall channels %s failed", ", ".join(searched), exc_info=True)
            return {channel: Degradation(channel, f"failed: {type(error).__name__}") for channel in searched}

    def graph() -> list[Ranked]:
        assert named is not None
        text_hits = reciprocal_rank_fusion(rankings, k=runtime.settings.recall.rrf_k, supporting=supporting(runtime))[
            : runtime.settings.recall.graph.text_hits
        ]
        query = GraphQuery(
            request.namespace,
            as_of=request.as_of or now,
            known_at=request.known_at or now,
            limit=fetch,
            options=runtime.settings.recall.graph,
            activation=_activation(runtime, preset),
            strength=runtime.settings.relations,
        )
        return graph_channel(runtime, query, named.result(), [hit.id for hit in text_hits])

    def keep(channel: Channel, result: list[Ranked] | Degradation) -> None:
        if isinstance(result, Degradation):
            degraded.append(result)
        else:
            rankings[channel] = result

    # The text channels run beside each other: ONNX Runtime and the store's engine release the
    # GIL. The graph channel comes last: it starts from their hits too.
    vectors = pool.submit(embed_then_vectors) if searched else None
    if Channel.KEYWORD in wanted:
        keep(Channel.KEYWORD, attempt(Channel.KEYWORD, lambda: _keyword(runtime, request, fetch)))
    if Channel.HINT in wanted and runtime.settings.recall.hint_channel:
        keep(Channel.HINT, attempt(Channel.HINT, lambda: _hint(runtime, request, fetch)))
    # Kept in the channels' order whichever finished first: fusion breaks ties by it.
    for channel, result in (vectors.result() if vectors is not None else {}).items():
        keep(channel, result)
    if Channel.GRAPH in wanted:
        keep(Channel.GRAPH, attempt(Channel.GRAPH, graph))
    return rankings, degraded, _names(named, reported=Channel.GRAPH in request.channels)


def _names(named: Future[QuerySeeds] | None, reported: bool) -> tuple[str, ...]:
    """The names the query spells, for the speaker prior: none when they could not be read (the
    prior then does not apply, and recall still answers)."""
    if named is None:
        return ()
    try:
        return named.result().names
    except Exception:  # logged once: by the graph channel when it ran, else here
        if not reported:
            log.warning("the query's names could not be read", exc_info=True)
        return ()


def supporting(runtime: Runtime) -> dict[Channel, int]:
    """The channels that add to the others' hits, with how many places lower a hit only they found
    counts (recall/fusion.py)."""
    return {Channel.HINT: runtime.settings.recall.hint_only_offset}


def _activation(runtime: Runtime, preset: ModePreset) -> ActivationParams:
    configured = runtime.settings.recall.activation
    # A mode may look further than configured, never less far.
    return replace(configured, depth=max(configured.depth, preset.activation_depth))


def _keyword(runtime: Runtime, request: RecallRequest, fetch: int) -> list[Ranked]:
    terms = fulltext_query(request.query)
    if terms is None:
        return []
    plain = scoped_query(request.namespace, terms)
    # Episodes by their words' stems (capture writes them), facts by their statements' words.
    episodes = (
        ("episode_stems", scoped_query(request.namespace, stems(terms)))
        if runtime.settings.recall.keyword_stems
        else ("episode_search", plain)
    )
    return _fulltext(runtime, request, fetch, [episodes, ("fact_search", plain)])


def _hint(runtime: Runtime, request: RecallRequest, fetch: int) -> list[Ranked]:
    """Episodes by their hints (extraction/hints.py), which are stems: the question's words
    stemmed alike."""
    terms = fulltext_query(request.query)
    if terms is None:
        return []
    return _fulltext(runtime, request, fetch, [("episode_hints", scoped_query(request.namespace, stems(terms)))])


def _fulltext(runtime: Runtime, request: RecallRequest, fetch: int, searches: list[tuple[str, str]]) -> list[Ranked]:
    """The best ``fetch`` hits of full-text searches, each an index and a query, in one statement."""
    listed = [{"index": runtime.store.index(index), "query": query} for index, query in searches]
    rows = runtime.store.read_listed(FULLTEXT_SEARCH, searches=listed, namespace=request.namespace, limit=fetch)
    return [Ranked(row["id"], row["score"], row["label"]) for row in rows]
