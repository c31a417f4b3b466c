"""The graph channel (docs/architecture.md, Recall): memories that meet the query at an entity or a concept.

Seeds are the entities the query names (resolved as consolidation resolves names), the concepts
its noun phrases match (read as extraction reads them) and, at lower weight, the top keyword and
vector hits. Over the subgraph of the seeds' memories, the hits' nodes and the turns next to the
hits and the best memories (a question and its answer are two turns), personalized PageRank
(HippoRAG) or spreading activation ranks the memories; nodes are weighted by their idf, and hubs
(nodes linked to more than ``hub_share`` of the namespace's episodes: the speakers of a
conversation, "friend") are left out, as stopwords are left out of a keyword query. A named
entity's typed edges are read from either end; with ``edge_strength`` each such link weighs the
edge's strength (kernel/strength.py), else 1.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Protocol

from hippograph.embedding import Embedder
from hippograph.extraction.lazy import TextExtractor
from hippograph.kernel.config import ActivationParams, GraphSettings, RelationStrength
from hippograph.kernel.strength import strength
from hippograph.recall.activation import idf
from hippograph.recall.fusion import Ranked
from hippograph.recall.ppr import Subgraph, personalized_pagerank, spreading_activation
from hippograph.resolution.resolve import name_ref, resolve_names
from hippograph.store import Store, Transaction
from hippograph.store.graph_copy import NamespaceGraph, StepQuery
from hippograph.store.rows import (
    GRAPH_COPY,
    GRAPH_NEXT_EPISODES,
    GRAPH_VERSION,
    GRAPH_WALK,
    GraphStep,
    GraphVersion,
    NextEpisode,
    SeedNode,
    VectorScope,
)

PPR = "ppr"
SPREADING = "spreading"
# A hit of the keyword and vector channels is evidence of what the query is about, weaker than a
# name or a phrase the query states.
HIT_SEED_WEIGHT = 0.5
# A node linked to this many memories or fewer is never a hub: in a small namespace every name
# is a large share, and reading a few memories costs little.
HUB_MIN_DF = 10
# Digits of a graph score that rank memories; the rest is float noise.
SCORE_DIGITS = 12
# A further hop (``GraphSettings.hops``) goes out from this many of the best memories found so far.
HOP_MEMORIES = 10


@dataclass(frozen=True)
class GraphQuery:
    namespace: str
    as_of: datetime
    known_at: datetime
    limit: int
    options: GraphSettings = GraphSettings()
    activation: ActivationParams = ActivationParams()
    strength: RelationStrength = RelationStrength()


@dataclass(frozen=True)
class QuerySeeds:
    """What the query itself points at: entity ids and concept keys; ``names`` as the query
    spells them. ``version``: the graph's version in the copy whose names the entities were
    found by (None: found through the store, or none to find)."""

    entities: tuple[str, ...]
    concept_keys: tuple[str, ...]
    names: tuple[str, ...] = ()
    version: str | None = None


def query_seeds(
    store: Store,
    embedder: Embedder,
    extractor: TextExtractor,
    namespace: str,
    query: str,
    resolve: bool = True,
    known: NamespaceGraph | None = None,
) -> QuerySeeds:
    """What the query points at; with ``resolve`` False its names only (what the speaker prior
    reads when the graph channel does not run): no entity looked up, no concept read. ``known``:
    a copy of the namespace's graph to find the names' entities in, by key and by spelling,
    rather than the store."""
    mentions = extractor.names(query)
    names = tuple(mention.text for mention in mentions)
    if not resolve:
        return QuerySeeds((), (), names)
    entities: set[str] = set()
    if mentions:
        resolved = resolve_names(
            store,
            embedder,
            namespace,
            [name_ref(m) for m in mentions],
            by_embedding=False,
            known=known,
        )
        entities = {r.entity_id for r in resolved.values() if r.entity_id is not None}
    version = known.version if known is not None and mentions else None
    return QuerySeeds(tuple(sorted(entities)), tuple(extractor.concept_keys(query)), names, version)


def graph_channel(
    store: Store, request: GraphQuery, seeds: QuerySeeds, text_hits: Sequence[str], version: GraphVersion | None = None
) -> list[Ranked]:
    """Memory ids with graph scores, best first: walked over this process's copy of the
    namespace's graph when it is current (store/graph_copy.py), else through the store, whose
    statements need no one snapshot: the hits are ids, which authorization reads again.
    ``version``: the graph's version, when the recall read it already (``version_in``); a copy
    of that version is walked even if a write came since, as a walk through the store begun
    then would have been."""
    namespace = request.namespace
    if request.options.in_process:
        found = version if version is not None else store.read(GRAPH_VERSION, namespace=namespace)[0]
        copy = store.graph_copies.current(namespace, found, lambda: store.read(GRAPH_COPY, namespace=namespace)[0])
        if copy is not None:
            return _rank(_CopyReader(copy, found["episodes"]), request, seeds, text_hits)
    started = time.perf_counter()
    ranked = store.read_each(lambda tx: _rank(_StoreReader(tx, namespace), request, seeds, text_hits))
    store.graph_copies.paid(namespace, time.perf_counter() - started)
    return ranked


def version_in(scope: VectorScope) -> GraphVersion:
    """The graph's version as the namespace's scope row read it (scope_and_hits.cypher)."""
    return GraphVersion(recorded=scope["recorded"], version=scope["graph_version"], episodes=scope["episodes"])


class _Reader(Protocol):
    def step(self, query: StepQuery) -> GraphStep: ...

    def next_episodes(self, memories: list[str], as_of: datetime, known_at: datetime) -> list[NextEpisode]: ...


class _StoreReader:
    """The walk's reads as statements (graph_walk.cypher, graph_next_episodes.cypher)."""

    def __init__(self, tx: Transaction, namespace: str) -> None:
        self.tx, self.namespace = tx, namespace

    def step(self, query: StepQuery) -> GraphStep:
        [step] = self.tx.run(GRAPH_WALK, **asdict(query))
        return step

    def next_episodes(self, memories: list[str], as_of: datetime, known_at: datetime) -> list[NextEpisode]:
        return self.tx.run_listed(
            GRAPH_NEXT_EPISODES, memories=memories, namespace=self.namespace, as_of=as_of, known_at=known_at
        )


class _CopyReader:
    """The walk's reads over a namespace's graph in process (store/graph_copy.py)."""

    def __init__(self, copy: NamespaceGraph, episodes: int) -> None:
        self.copy, self.episodes = copy, episodes

    def step(self, query: StepQuery) -> GraphStep:
        return self.copy.step(query, self.episodes)

    def next_episodes(self, memories: list[str], as_of: datetime, known_at: datetime) -> list[NextEpisode]:
        return self.copy.next_episodes(memories, as_of, known_at)


def _rank(reader: _Reader, request: GraphQuery, seeds: QuerySeeds, text_hits: Sequence[str]) -> list[Ranked]:
    options = request.options
    keys = list(seeds.concept_keys) if options.concepts else []
    if not seeds.entities and not keys and not text_hits:
        return []
    walk = _Walk(reader, request)
    start: dict[str, float] = dict.fromkeys(text_hits, HIT_SEED_WEIGHT)
    walk.expand(list(seeds.entities), keys, list(text_hits), start)
    for _ in range(options.hops - 1):
        # A further hop goes out from the best memories found so far, through their own
        # entities and concepts: what the query's memories are about leads to more memories.
        walk.expand([], [], walk.best(start, HOP_MEMORIES), None)
    if options.next_turns:
        walk.add_next_turns([*text_hits, *walk.best(start, HOP_MEMORIES)])
    scores = _propagate(walk.graph, start, request)
    # Only the memories this read saw (visible at the query's times, not forgotten) are ranked.
    # Equal scores tie by id: rounded first, as the walk's sums carry float noise that follows the
    # order the store returned rows in, which differs between a store and its restored copy.
    ranked = sorted(
        ((scores.get(m, 0.0), m) for m in walk.labels), key=lambda item: (-round(item[0], SCORE_DIGITS), item[1])
    )
    return [Ranked(memory, score, walk.labels[memory]) for score, memory in ranked[: request.limit] if score > 0]


class _Walk:
    """The subgraph read so far: nodes with their weights, memories with their labels."""

    def __init__(self, reader: _Reader, request: GraphQuery) -> None:
        self.reader, self.request = reader, request
        self.graph = Subgraph()
        self.labels: dict[str, str] = {}
        self.expanded: set[str] = set()

    def best(self, start: dict[str, float], count: int) -> list[str]:
        """The ``count`` best-scored memories not expanded yet."""
        scores = _propagate(self.graph, start, self.request)
        fresh = (memory for memory in self.labels if memory not in self.expanded)
        return sorted(fresh, key=lambda memory: (-scores.get(memory, 0.0), memory))[:count]

    def add_next_turns(self, memories: list[str]) -> None:
        """Link each memory with the turns before and after it in its session."""
        request = self.request
        for row in self.reader.next_episodes(memories, request.as_of, request.known_at):
            self.graph.link(row["memory"], row["neighbour"])
            self.labels[row["neighbour"]] = "Episode"

    def expand(self, entities: list[str], keys: list[str], memories: list[str], start: dict[str, float] | None) -> None:
        """Add the seeds' nodes (into ``start`` when given), the memories' nodes, and every new
        node's memories: one step, which leaves hubs out."""
        request, options = self.request, self.request.options
        self.expanded.update(memories)
        step = self.reader.step(
            StepQuery(
                namespace=request.namespace,
                entities=entities,
                concept_keys=keys,
                hits=memories,
                expanded=sorted(self.graph.weight),
                concepts=options.concepts,
                fact_concepts=options.fact_concepts,
                hub_share=options.hub_share,
                min_hub_df=HUB_MIN_DF,
                as_of=request.as_of,
                known_at=request.known_at,
            )
        )
        episodes = max(step["episodes"], 1)
        for row in step["seeds"]:
            weight = idf(row["df"], episodes) if options.idf else 1.0
            self.graph.weight[row["id"]] = weight
            if row["via"] is None and start is not None:
                start[row["id"]] = max(start.get(row["id"], 0.0), weight)
            elif row["via"] is not None:
                self.graph.link(row["id"], row["via"], self._strength(row))
        for node in step["links"]:
            for label, linked in (("Episode", node["episodes"]), ("Fact", node["facts"])):
                for memory in linked:
                    self.graph.link(node["node"], memory)
                    self.labels[memory] = label

    def _strength(self, row: SeedNode) -> float | None:
        """A typed edge's strength at the query's valid time, when the channel weighs it; None
        (a link like any other) for other rows."""
        if not self.request.options.edge_strength or row["supports"] is None or row["last_support"] is None:
            return None
        confidence = row["confidence"] if row["confidence"] is not None else 0.0
        return strength(row["supports"], row["last_support"], confidence, self.request.as_of, self.request.strength)


def _propagate(graph: Subgraph, start: dict[str, float], request: GraphQuery) -> dict[str, float]:
    if request.options.propagation == SPREADING:
        return spreading_activation(graph, start, request.activation)
    return personalized_pagerank(graph, start, request.options.damping)
