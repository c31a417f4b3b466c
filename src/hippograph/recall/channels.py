"""Recall's channels for one request: keyword, hint, vector, context and graph, each returning ids and
scores only (nothing is read before authorization). A failing channel degrades recall instead of
failing it. Which channels run, what each searches and what the graph channel asks are decided on
plain data (plan_channels, hint_searches, graph_query; the keyword channel's searches are
store/search.py's memory_searches)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial

from hippograph.kernel.config import ActivationParams, RecallSettings, RelationStrength
from hippograph.kernel.lucene import fulltext_query
from hippograph.kernel.text.stems import stems
from hippograph.kernel.timing import Stopwatch
from hippograph.recall.fusion import Ranked, reciprocal_rank_fusion
from hippograph.recall.graph import GraphQuery, QuerySeeds, graph_channel, query_seeds, version_in
from hippograph.recall.modes import ModePreset
from hippograph.recall.parts import RecallParts
from hippograph.recall.request import Channel, Degradation, RecallRequest
from hippograph.store import Store
from hippograph.store.rows import SCOPE_AND_HITS, GraphVersion, VectorScope
from hippograph.store.search import Search, memory_searches, scoped_query
from hippograph.store.vectors import CONTEXTS, KINDS, VectorQuery, vector_channels

log = logging.getLogger(__name__)

MIN_COSINE = 0.3


@dataclass(frozen=True)
class ChannelPlan:
    """Which of a request's channels run, as the server's settings allow."""

    keyword: bool
    hint: bool
    searched: tuple[Channel, ...]  # vector and context: one search against the query's embedding
    graph: bool
    # The names the query spells: the graph channel's seeds, and the speaker prior's evidence.
    reads_names: bool


def plan_channels(wanted: frozenset[Channel], settings: RecallSettings) -> ChannelPlan:
    return ChannelPlan(
        keyword=Channel.KEYWORD in wanted,
        hint=Channel.HINT in wanted and settings.hint_channel,
        searched=tuple(
            channel
            for channel, on in ((Channel.VECTOR, True), (Channel.CONTEXT, settings.context_channel))
            if on and channel in wanted
        ),
        graph=Channel.GRAPH in wanted,
        # The speaker prior reads the names the query spells even when the graph channel is off.
        reads_names=Channel.GRAPH in wanted or settings.named_speaker_factor < 1,
    )


def run_channels(
    parts: RecallParts, request: RecallRequest, preset: ModePreset, fetch: int, now: datetime, watch: Stopwatch
) -> tuple[dict[Channel, list[Ranked]], list[Degradation], tuple[str, ...]]:
    """Each requested channel's ranking, and the names the query spells when the graph channel or
    the speaker prior read them; a channel that fails is reported, not raised."""
    rankings: dict[Channel, list[Ranked]] = {}
    degraded: list[Degradation] = []
    pool, store, settings = parts.query_threads, parts.store, parts.settings
    plan = plan_channels(request.channels, settings)
    # The question's names are found in the namespace's last copy of its graph, whatever its
    # version: the graph channel checks it against the version it walks.
    known = store.graph_copies.latest(request.namespace) if plan.graph and settings.graph.in_process else None
    seeds = partial(query_seeds, store, parts.embedder, parts.extractor, request.namespace, request.query)
    named = pool.submit(seeds, plan.graph, known) if plan.reads_names else None

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
    searched = plan.searched
    # The keyword channel's statement reads the namespace's scope too (scope_and_hits.cypher),
    # which the vector channel weighs before it searches: one round trip fewer, and the embedding
    # is made meanwhile. None: no keyword statement ran (the channel is off, failed, or the query
    # has no searchable word), and the vector channel reads the scope itself.
    first_read: Future[VectorScope | None] = Future()
    if not plan.keyword:
        first_read.set_result(None)

    def embed_then_vectors() -> tuple[dict[Channel, list[Ranked] | Degradation], GraphVersion | None]:
        """The channels' rankings, and the graph's version the search's scope row carries."""
        try:
            with watch.stage("embed_query"):
                embedding = parts.embedder.embed_query(request.query)
            kinds = {Channel.VECTOR: KINDS, Channel.CONTEXT: (CONTEXTS,)}
            queries = [VectorQuery(request.namespace, embedding, fetch, MIN_COSINE, kinds[c]) for c in searched]
            with watch.stage(searched[0].value):
                answers = vector_channels(store, queries, first_read.result())
            return dict(zip(searched, answers.rankings, strict=True)), version_in(answers.scope)
        except Exception as error:  # a channel may fail; recall must still answer
            log.warning("recall channels %s failed", ", ".join(searched), exc_info=True)
            return {channel: Degradation(channel, f"failed: {type(error).__name__}") for channel in searched}, None

    def graph(version: GraphVersion | None) -> list[Ranked]:
        assert named is not None
        best = reciprocal_rank_fusion(
            rankings, k=settings.rrf_k, supporting=supporting(settings), limit=settings.graph.text_hits
        )
        text_hits = [hit.id for hit in best]
        query = graph_query(request, now, fetch, preset, settings, parts.relations)
        found = named.result()
        if found.version is not None and (version is None or found.version != version["version"]):
            found = seeds()  # found in a copy of another version than the graph walked: again, in the store
        return graph_channel(store, query, found, text_hits, version)

    def fulltext(searches: Callable[[], list[Search]], *, reads_scope: bool = False) -> Callable[[], list[Ranked]]:
        def run() -> list[Ranked]:
            # The searches are made inside the channel's attempt: they are part of its work.
            ranked, scope = _fulltext(store, request.namespace, fetch, searches())
            if reads_scope:
                first_read.set_result(scope)
            return ranked

        return run

    def keep(channel: Channel, result: list[Ranked] | Degradation) -> None:
        if isinstance(result, Degradation):
            degraded.append(result)
        else:
            rankings[channel] = result

    # The text channels run beside each other: ONNX Runtime and the store's engine release the
    # GIL. The graph channel comes last: it starts from their hits too.
    vectors = pool.submit(embed_then_vectors) if searched else None
    if plan.keyword:
        searches = partial(memory_searches, request.namespace, request.query)
        try:
            keep(Channel.KEYWORD, attempt(Channel.KEYWORD, fulltext(searches, reads_scope=True)))
        finally:
            if not first_read.done():
                first_read.set_result(None)
    if plan.hint:
        keep(Channel.HINT, attempt(Channel.HINT, fulltext(partial(hint_searches, request.namespace, request.query))))
    searched_rankings, version = vectors.result() if vectors is not None else ({}, None)
    if version is None and (scope := first_read.result()) is not None:
        version = version_in(scope)  # the graph channel's too, when the vector search did not run
    # Kept in the channels' order whichever finished first: fusion breaks ties by it.
    for channel, result in searched_rankings.items():
        keep(channel, result)
    if plan.graph:
        keep(Channel.GRAPH, attempt(Channel.GRAPH, partial(graph, version)))
    return rankings, degraded, _names(named, reported=plan.graph)


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


def supporting(settings: RecallSettings) -> dict[Channel, int]:
    """The channels that add to the others' hits, with how many places lower a hit only they found
    counts (recall/fusion.py)."""
    return {Channel.HINT: settings.hint_only_offset}


def activation(configured: ActivationParams, preset: ModePreset) -> ActivationParams:
    # A mode may look further than configured, never less far.
    return replace(configured, depth=max(configured.depth, preset.activation_depth))


def graph_query(
    request: RecallRequest,
    now: datetime,
    fetch: int,
    preset: ModePreset,
    settings: RecallSettings,
    relations: RelationStrength,
) -> GraphQuery:
    """What the graph channel asks: the request's times (now when it gives none), and the walk the
    settings and the mode configure."""
    return GraphQuery(
        request.namespace,
        as_of=request.as_of or now,
        known_at=request.known_at or now,
        limit=fetch,
        options=settings.graph,
        activation=activation(settings.activation, preset),
        strength=relations,
    )


def hint_searches(namespace: str, query: str) -> list[Search]:
    """Episodes by their hints (extraction/hints.py), which are stems: the question's words
    stemmed alike."""
    terms = fulltext_query(query)
    if terms is None:
        return []
    return [("episode_hints", scoped_query(namespace, stems(terms)))]


def _fulltext(
    store: Store, namespace: str, fetch: int, searches: list[Search]
) -> tuple[list[Ranked], VectorScope | None]:
    """The best ``fetch`` hits of full-text searches, each an index and a query, and the
    namespace's scope, in one statement; without searches, no statement."""
    if not searches:
        return [], None
    listed = [{"index": store.index(index), "query": query} for index, query in searches]
    [found] = store.read(SCOPE_AND_HITS, searches=listed, namespace=namespace, limit=fetch)
    return [Ranked(hit["id"], hit["score"], hit["label"]) for hit in found["hits"]], found
