"""A namespace's graph in process: what the graph channel walks (recall/graph.py), read whole
once (graph_copy.cypher) and walked as graph_walk.cypher and graph_next_episodes.cypher walk it in
the store, with their filters (namespace, merges, hubs, forgetting, valid and transaction time)
applied here. A step answers the rows the statement would, so the channel ranks alike from
either."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from rapidfuzz import fuzz, process

from hippograph.kernel import metrics
from hippograph.kernel.lucene import fulltext_query
from hippograph.store.rows import (
    EntityByKey,
    EntityCandidate,
    GraphCopyRecord,
    GraphStep,
    GraphVersion,
    NextEpisode,
    NodeMemories,
    SeedNode,
)
from hippograph.store.times import time_of
from hippograph.store.vector_cache import KEPT_UP_TO

__all__ = ["GraphCopies", "NamespaceGraph", "StepQuery"]

_ENTITY, _CONCEPT, _EPISODE, _FACT = "Entity", "Concept", "Episode", "Fact"

# Nodes, memories and links kept in all: ~250 bytes each, ids included (docs/benchmarks.md).
MAX_ENTRIES = 1_000_000
# How many reads' worth of walks through the store a namespace written to all the time waits
# before its graph is read again (GraphCopies).
MAX_PATIENCE = 64.0


@dataclass(frozen=True)
class StepQuery:
    """One step's parameters, as graph_walk.cypher takes them."""

    namespace: str
    entities: Sequence[str]
    concept_keys: Sequence[str]
    hits: Sequence[str]
    expanded: Sequence[str]
    concepts: bool
    fact_concepts: bool
    hub_share: float
    min_hub_df: int
    as_of: datetime
    known_at: datetime


class _Node(NamedTuple):
    label: str
    df: int
    live: bool  # not merged into another


class _Memory(NamedTuple):
    label: str
    forgotten: bool
    start: datetime | None  # coalesce(occurred_at, valid_from, recorded_at)
    known: datetime | None  # coalesce(captured_at, recorded_at)
    valid_to: datetime | None
    occurred_at: datetime | None
    captured_at: datetime | None

    def visible(self, as_of: datetime, known_at: datetime) -> bool:
        """graph_walk.cypher's filter of a node's memories (a missing time fails it, as null does)."""
        return (
            not self.forgotten
            and self.start is not None
            and self.start <= as_of
            and self.known is not None
            and self.known <= known_at
            and (self.valid_to is None or self.valid_to > as_of)
        )

    def next_visible(self, as_of: datetime, known_at: datetime) -> bool:
        """graph_next_episodes.cypher's filter of a neighbouring turn."""
        return (
            not self.forgotten
            and self.occurred_at is not None
            and self.occurred_at <= as_of
            and self.captured_at is not None
            and self.captured_at <= known_at
        )

    def supports_at(self, as_of: datetime, known_at: datetime) -> datetime | None:
        """When this episode happened, if it supports a fact at these times (graph_walk.cypher's
        typed edges), else None."""
        at = self.occurred_at if self.occurred_at is not None else self.captured_at
        if self.forgotten or at is None or at > as_of or self.captured_at is None or self.captured_at > known_at:
            return None
        return at


class _Edge(NamedTuple):
    other: str
    forgotten: bool
    valid_from: datetime | None
    valid_to: datetime | None
    recorded_at: datetime | None
    expired_at: datetime | None
    fact: str | None
    confidence: float | None

    def holds(self, as_of: datetime, known_at: datetime) -> bool:
        return (
            not self.forgotten
            and (self.valid_from is None or self.valid_from <= as_of)
            and (self.valid_to is None or self.valid_to > as_of)
            and (self.recorded_at is None or self.recorded_at <= known_at)
            and (self.expired_at is None or self.expired_at > known_at)
        )


class NamespaceGraph:
    """One namespace's nodes, typed edges, memories and links, from graph_copy.cypher's record
    (its times ISO text, read back here)."""

    def __init__(self, record: GraphCopyRecord) -> None:
        self.version = record["version"]
        nodes = [*record["entities"], *record["concepts"]]
        self._nodes = {node_id: _Node(label, int(df), bool(live)) for node_id, label, df, live, _ in nodes}
        self._concepts_by_key: dict[str, tuple[str, ...]] = _grouped(
            (key, node_id) for node_id, _, _, _, key in nodes if key is not None
        )
        self._edges: dict[str, tuple[_Edge, ...]] = _grouped(
            (
                edge["from"],
                _Edge(
                    edge["to"],
                    edge["forgotten"],
                    time_of(edge["valid_from"]),
                    time_of(edge["valid_to"]),
                    time_of(edge["recorded_at"]),
                    time_of(edge["expired_at"]),
                    edge["fact"],
                    edge["confidence"],
                ),
            )
            for edge in record["edges"]
        )
        self._memories: dict[str, _Memory] = {}
        for memory_id, forgotten, start, known, valid_to, occurred_at, captured_at in record["episodes"]:
            self._memories[memory_id] = _Memory(
                _EPISODE,
                forgotten,
                time_of(start),
                time_of(known),
                time_of(valid_to),
                time_of(occurred_at),
                time_of(captured_at),
            )
        for memory_id, forgotten, start, known, valid_to in record["facts"]:
            self._memories[memory_id] = _Memory(
                _FACT, forgotten, time_of(start), time_of(known), time_of(valid_to), None, None
            )
        self._mentioned = _grouped(record["mentions"])  # episode -> its entities and concepts
        self._mentioning = _grouped((node, episode) for episode, node in record["mentions"])
        self._about = _grouped(record["about"])  # fact -> its entities
        self._about_of = _grouped((entity, fact) for fact, entity in record["about"])
        self._concept_facts = _grouped((concept, fact) for fact, concept in record["fact_concepts"])
        self._support = _grouped(record["support"])  # fact -> its episodes
        self._next = _grouped([*record["next"], *((b, a) for a, b in record["next"])])
        self._by_key = _names(record)
        # The live entities by canonical key and by their other names: what spelling checks read.
        live = [
            _LiveEntity(entity_id, kind, canonical, name, tuple(others or ()), mentions or 0)
            for canonical, entity_id, kind, _, mentions, _, name, others in record["names"]
        ]
        self._live: dict[str, tuple[_LiveEntity, ...]] = _grouped((entity.canonical, entity) for entity in live)
        self._by_other_name: dict[str, tuple[_LiveEntity, ...]] = _grouped(
            (other, entity) for entity in live for other in dict.fromkeys(entity.aliases)
        )
        self._live_canonicals = tuple(self._live)
        self._entries = (
            len(self._nodes)
            + len(self._memories)
            + sum(
                len(record[key])
                for key in ("edges", "mentions", "about", "fact_concepts", "support", "next", "names", "aliases")
            )
        )

    @property
    def entries(self) -> int:
        """Its size: nodes, edges, memories and links."""
        return self._entries

    def step(self, query: StepQuery, episodes: int) -> GraphStep:
        """graph_walk.cypher's record for ``query`` in a namespace of ``episodes`` episodes."""
        hub_df = max(query.min_hub_df, query.hub_share * episodes)
        seeds: dict[tuple[Any, ...], SeedNode] = {}

        def seed(
            node_id: str, via: str | None, supports: int | None = None, last: Any = None, conf: Any = None
        ) -> None:
            node = self._nodes.get(node_id)
            if node is None or not node.live or (node.label == _CONCEPT and not query.concepts) or node.df > hub_df:
                return
            row = SeedNode(
                id=node_id, label=node.label, df=node.df, via=via, supports=supports, last_support=last, confidence=conf
            )
            seeds.setdefault((node_id, via, supports, last, conf), row)

        for entity in query.entities:
            if self._label(entity) == _ENTITY:
                seed(entity, None)
        for key in query.concept_keys:
            for concept in self._concepts_by_key.get(key, ()):
                seed(concept, None)
        for entity in query.entities:
            if self._label(entity) != _ENTITY:
                continue
            for edge in self._edges.get(entity, ()):
                if self._label(edge.other) == _ENTITY and edge.holds(query.as_of, query.known_at):
                    supports, last = self._support_of(edge, query)
                    seed(edge.other, entity, supports, last, edge.confidence)
        for hit in query.hits:
            label = self._memory_label(hit)
            if label == _EPISODE:
                for node in self._mentioned.get(hit, ()):
                    seed(node, hit)
            elif label == _FACT:
                for entity in self._about.get(hit, ()):
                    if self._label(entity) == _ENTITY:
                        seed(entity, hit)
                for episode in self._support.get(hit, ()):
                    for node in self._mentioned.get(episode, ()):
                        if self._label(node) == _CONCEPT:
                            seed(node, hit)
        nodes = list(dict.fromkeys(row["id"] for row in seeds.values()))
        expanded = set(query.expanded)
        links = [
            linked
            for node in nodes
            if node not in expanded and (linked := self._node_memories(node, query)) is not None
        ]
        return GraphStep(episodes=episodes, seeds=list(seeds.values()), links=links)

    def entities_by_key(self, keys: Iterable[str]) -> list[EntityByKey]:
        """entities_by_key.cypher's rows for ``keys``: each key's entities by canonical key before
        those by alias, the most mentioned first."""
        return [row for key in dict.fromkeys(keys) for row in self._by_key.get(key, ())]

    def entities_spelled_like(self, probes: Iterable[tuple[str, str]], min_ratio: float) -> list[EntityCandidate]:
        """entity_candidates.cypher's rows that resolution's spelling check can take
        (resolution/resolve.py): for each probe, a name's key and its full-text query, the live
        entities whose name shares a word with the query, as the index requires, and whose other
        names hold the key or whose canonical key is at least ``min_ratio`` alike to it
        (rapidfuzz's ratio, 0–100), the most mentioned first. All of them, where the index offers
        the few it ranks first."""
        rows: list[EntityCandidate] = []
        for key, query in dict.fromkeys(probes):
            words = _words(query)
            alike = process.extract(key, self._live_canonicals, scorer=fuzz.ratio, score_cutoff=min_ratio, limit=None)
            found = {
                entity.id: entity
                for entity in [*self._by_other_name.get(key, ()), *(e for c, _, _ in alike for e in self._live[c])]
                if not words.isdisjoint(_words(entity.name))
            }
            rows += [
                EntityCandidate(key=key, id=e.id, type=e.type, canonical=e.canonical, aliases=list(e.aliases))
                for e in sorted(found.values(), key=lambda e: (-e.mentions, e.id))
            ]
        return rows

    def next_episodes(self, memories: Iterable[str], as_of: datetime, known_at: datetime) -> list[NextEpisode]:
        """graph_next_episodes.cypher's rows: the turns next to each memory (a fact's: next to the
        episodes that support it)."""
        rows: list[NextEpisode] = []
        for memory in memories:
            label = self._memory_label(memory)
            turns = (memory,) if label == _EPISODE else self._support.get(memory, ()) if label == _FACT else ()
            neighbours = dict.fromkeys(n for turn in turns for n in self._next.get(turn, ()))
            for neighbour in neighbours:
                episode = self._memories.get(neighbour)
                if episode is not None and episode.next_visible(as_of, known_at):
                    rows.append(NextEpisode(memory=memory, neighbour=neighbour))
        return rows

    def _node_memories(self, node: str, query: StepQuery) -> NodeMemories | None:
        label = self._label(node)
        if label == _ENTITY:
            linked = [*self._mentioning.get(node, ()), *self._about_of.get(node, ())]
        elif label == _CONCEPT:
            linked = [
                *self._mentioning.get(node, ()),
                *(self._concept_facts.get(node, ()) if query.fact_concepts else ()),
            ]
        else:
            return None
        episodes: list[str] = []
        facts: list[str] = []
        for memory_id in dict.fromkeys(linked):
            memory = self._memories.get(memory_id)
            if memory is not None and memory.visible(query.as_of, query.known_at):
                (episodes if memory.label == _EPISODE else facts).append(memory_id)
        if not episodes and not facts:
            return None
        return NodeMemories(node=node, episodes=episodes, facts=facts)

    def _support_of(self, edge: _Edge, query: StepQuery) -> tuple[int, datetime | None]:
        """How many episodes support the edge's fact at the query's times, and the last of them
        (the edge's own record time when none does)."""
        if edge.fact is None or self._memory_label(edge.fact) != _FACT:
            return 0, edge.recorded_at
        times = {
            episode: at
            for episode in self._support.get(edge.fact, ())
            if (memory := self._memories.get(episode)) is not None
            and (at := memory.supports_at(query.as_of, query.known_at)) is not None
        }
        return len(times), max(times.values(), default=edge.recorded_at)

    def _label(self, node_id: str) -> str | None:
        node = self._nodes.get(node_id)
        return None if node is None else node.label

    def _memory_label(self, memory_id: str) -> str | None:
        memory = self._memories.get(memory_id)
        return None if memory is None else memory.label


class _LiveEntity(NamedTuple):
    id: str
    type: str
    canonical: str
    name: str | None  # what the entity index searches
    aliases: tuple[str, ...]  # its other names
    mentions: int


def _names(record: GraphCopyRecord) -> dict[str, tuple[EntityByKey, ...]]:
    found: dict[str, dict[tuple[str, bool], tuple[int, EntityByKey]]] = defaultdict(dict)
    for key, entity_id, kind, canonical, mentions, by_alias, *_ in [*record["names"], *record["aliases"]]:
        row = EntityByKey(key=key, id=entity_id, type=kind, canonical=canonical, by_alias=by_alias)
        found[key][entity_id, by_alias] = (mentions or 0, row)
    return {
        key: tuple(
            row for _, row in sorted(rows.values(), key=lambda kept: (kept[1]["by_alias"], -kept[0], kept[1]["id"]))
        )
        for key, rows in found.items()
    }


def _words(text: str | None) -> frozenset[str]:
    """The words of ``text`` a full-text query searches."""
    terms = fulltext_query(text or "")
    return frozenset(terms.split()) if terms is not None else frozenset()


def _grouped(pairs: Iterable[Sequence[Any]]) -> dict[str, tuple[Any, ...]]:
    """The second of each pair by the first, in their order, as tuples: Python's cyclic collector
    stops tracking a tuple of strings (a list it tracks for good), so that a full collection, which
    holds every thread, walks far fewer of the copies' links (docs/benchmarks.md)."""
    grouped: dict[str, list[Any]] = defaultdict(list)
    for a, b in pairs:
        grouped[a].append(b)
    return {key: tuple(values) for key, values in grouped.items()}


class GraphCopies:
    """This process's copies of namespaces' graphs, each walked while its namespace's graph is
    at the version the copy was read at (graph_stamps.py).

    When a write has changed a namespace's graph, its walks go through the store until what they
    took adds up to what the last read of the whole graph took, times the namespace's patience,
    and until two walks in a row find the graph at one version; then the graph is read again.
    That is ski rental: once the writes stop, one read serves every later recall, and a read
    costs no more than the walks before it did. A copy that went stale before it had saved what
    reading it cost doubles its namespace's patience (up to ``MAX_PATIENCE``); one that paid for
    itself resets it. A namespace of more than ``KEPT_UP_TO`` episodes (the vectors' bound:
    vector_cache.py) is always walked through the store, and past ``max_entries`` (nodes,
    memories and links) the least recently walked copies go first."""

    def __init__(self, max_entries: int = MAX_ENTRIES, clock: Callable[[], float] = time.perf_counter) -> None:
        self._max_entries = max_entries
        self._clock = clock
        self._copies: OrderedDict[str, _Kept] = OrderedDict()
        self._lock = threading.Lock()

    def current(
        self, namespace: str, found: GraphVersion, read: Callable[[], GraphCopyRecord]
    ) -> NamespaceGraph | None:
        """The namespace's copy, read again when it is stale and its stale walks have cost what a
        read does, times its patience; None: walk through the store (then ``paid`` what that
        took)."""
        if not found["recorded"] or found["episodes"] > KEPT_UP_TO:
            return None
        patience = 1.0
        with self._lock:
            kept = self._copies.get(namespace)
            if kept is not None:
                self._copies.move_to_end(namespace)
                if kept.graph.version == found["version"]:
                    kept.uses += 1
                    return kept.graph
                # Not while the graph changes between one walk and the next: a copy read now
                # would be stale at the next walk.
                moved, kept.seen = kept.seen != found["version"], found["version"]
                if moved or kept.owed < kept.read_s * kept.patience:
                    return None
                patience = kept.next_patience()
        started = self._clock()
        graph = NamespaceGraph(read())
        metrics.GRAPH_COPY_LOADS.inc()
        with self._lock:
            self._copies[namespace] = _Kept(graph, self._clock() - started, patience)
            self._copies.move_to_end(namespace)
            total = sum(kept.graph.entries for kept in self._copies.values())
            while total > self._max_entries and self._copies:
                _, dropped = self._copies.popitem(last=False)
                total -= dropped.graph.entries
        return graph if graph.version == found["version"] else None

    def latest(self, namespace: str) -> NamespaceGraph | None:
        """The namespace's copy kept last, unless a walk has found the graph at another version
        since: the caller compares its version with the graph's."""
        with self._lock:
            kept = self._copies.get(namespace)
        return None if kept is None or kept.seen is not None else kept.graph

    def paid(self, namespace: str, seconds: float) -> None:
        """What a walk through the store took while the namespace's copy was stale."""
        with self._lock:
            kept = self._copies.get(namespace)
            if kept is not None:
                kept.owed += seconds
                kept.walks += 1


@dataclass
class _Kept:
    graph: NamespaceGraph
    read_s: float  # what reading it took
    patience: float = 1.0  # how many reads' worth of walks through the store before the next read
    uses: int = 0  # recalls it served
    owed: float = 0.0  # what walks through the store took since it went stale
    walks: int = 0  # how many
    seen: str | None = None  # the graph's version at the last walk since it went stale

    def next_patience(self) -> float:
        """The next copy's: this one's doubled if the walks it served saved less than reading it
        cost (each as long as a walk through the store), else 1."""
        saved = self.uses * self.owed / max(self.walks, 1)
        return 1.0 if saved >= self.read_s else min(2 * self.patience, MAX_PATIENCE)
