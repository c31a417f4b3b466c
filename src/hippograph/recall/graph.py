"""The graph channel (DESIGN §6): memories that meet the query at an entity or a concept.

Seeds are the entities the query names (resolved as consolidation resolves names), the concepts
its noun phrases match (read as extraction reads them) and, at lower weight, the top keyword and
vector hits. Over the subgraph of the seeds' memories and the hits' nodes, personalized PageRank
(HippoRAG) or spreading activation ranks the memories; nodes are weighted by their idf, and hubs
(nodes linked to more than ``hub_share`` of the namespace's episodes: the speakers of a
conversation, "friend") are left out, as stopwords are left out of a keyword query.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from hippograph.consolidation.resolve import name_ref, resolve_names
from hippograph.recall.activation import ActivationParams, idf
from hippograph.recall.fusion import Ranked
from hippograph.recall.ppr import Subgraph, personalized_pagerank, spreading_activation
from hippograph.runtime import Runtime
from hippograph.store import Transaction

PPR = "ppr"
SPREADING = "spreading"
# A hit of the keyword and vector channels is evidence of what the query is about, weaker than a
# name or a phrase the query states.
HIT_SEED_WEIGHT = 0.5
# A node linked to this many memories or fewer is never a hub: in a small namespace every name
# is a large share, and reading a few memories costs little.
HUB_MIN_DF = 10


@dataclass(frozen=True)
class GraphOptions:
    propagation: str = PPR  # PPR or SPREADING
    damping: float = 0.5  # PPR: the share of the walk that moves on at each step
    hub_share: float = 0.1
    use_concepts: bool = True
    use_idf: bool = True
    activation: ActivationParams = field(default_factory=ActivationParams)


@dataclass(frozen=True)
class GraphQuery:
    namespace: str
    as_of: datetime
    known_at: datetime
    limit: int
    options: GraphOptions = field(default_factory=GraphOptions)


@dataclass(frozen=True)
class QuerySeeds:
    """What the query itself points at: entity ids and concept keys."""

    entities: tuple[str, ...]
    concept_keys: tuple[str, ...]


def query_seeds(runtime: Runtime, namespace: str, query: str) -> QuerySeeds:
    mentions = runtime.extractor.names(query)
    entities: set[str] = set()
    if mentions:
        resolved = resolve_names(runtime, namespace, [name_ref(m) for m in mentions], by_embedding=False)
        entities = {r.entity_id for r in resolved.values() if r.entity_id is not None}
    return QuerySeeds(tuple(sorted(entities)), tuple(runtime.extractor.concept_keys(query)))


def graph_channel(runtime: Runtime, request: GraphQuery, seeds: QuerySeeds, text_hits: Sequence[str]) -> list[Ranked]:
    """Memory ids with graph scores, best first."""
    return runtime.store.read_in(lambda tx: _rank(tx, request, seeds, text_hits))


def _rank(tx: Transaction, request: GraphQuery, seeds: QuerySeeds, text_hits: Sequence[str]) -> list[Ranked]:
    options = request.options
    keys = list(seeds.concept_keys) if options.use_concepts else []
    if not seeds.entities and not keys and not text_hits:
        return []
    [count] = tx.run("namespace_episode_count", namespace=request.namespace)
    episodes = max(count["episodes"], 1)
    rows = tx.run(
        "graph_seed_nodes",
        entities=list(seeds.entities),
        concept_keys=keys,
        hits=list(text_hits),
        namespace=request.namespace,
        as_of=request.as_of,
        known_at=request.known_at,
    )
    graph = Subgraph()
    start: dict[str, float] = {hit: HIT_SEED_WEIGHT for hit in text_hits}
    for row in rows:
        if _is_hub(row["df"], episodes, options) or (row["label"] == "Concept" and not options.use_concepts):
            continue
        weight = idf(row["df"], episodes) if options.use_idf else 1.0
        graph.weight[row["id"]] = weight
        if row["via"] is None:
            start[row["id"]] = max(start.get(row["id"], 0.0), weight)
        else:
            graph.link(row["id"], row["via"])
    labels: dict[str, str] = {}
    for row in tx.run_listed(
        "graph_node_memories",
        nodes=sorted(graph.weight),
        namespace=request.namespace,
        as_of=request.as_of,
        known_at=request.known_at,
    ):
        graph.link(row["node"], row["memory"])
        labels[row["memory"]] = row["label"]
    if options.propagation == SPREADING:
        scores = spreading_activation(graph, start, options.activation)
    else:
        scores = personalized_pagerank(graph, start, options.damping)
    # Only the memories this read saw (visible at the query's times, not forgotten) are ranked.
    ranked = sorted(((scores.get(m, 0.0), m) for m in labels), key=lambda item: (-item[0], item[1]))
    return [Ranked(memory, score, labels[memory]) for score, memory in ranked[: request.limit] if score > 0]


def _is_hub(df: int, episodes: int, options: GraphOptions) -> bool:
    return df > max(options.hub_share * episodes, HUB_MIN_DF)
