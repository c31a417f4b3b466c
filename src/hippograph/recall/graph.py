"""The graph channel (DESIGN §6): from the entities a query names, activation spreads over typed
and co-occurrence edges, and memories score by the activation of the entities they involve.

Seeds are the query's own entities, resolved the way consolidation resolves names (exact key,
alias, spelling), and, at half weight, the entities of the other channels' top hits: what the
query is about as text finds its way into the graph, as in HippoRAG's personalized PageRank.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from hippograph.consolidation.resolve import name_ref, resolve_names
from hippograph.recall.activation import ActivationParams, Edge, entity_weights, spread
from hippograph.recall.fusion import Ranked
from hippograph.runtime import Runtime
from hippograph.store import Transaction

# Only the strongest activated entities score memories: the tail adds rows, not ranking.
MAX_SCORED_ENTITIES = 32
# Entities of the top keyword and vector hits are evidence of what the query is about, weaker than
# a name the query states.
HIT_SEED_WEIGHT = 0.5


@dataclass(frozen=True)
class GraphQuery:
    namespace: str
    as_of: datetime
    known_at: datetime
    limit: int
    params: ActivationParams = field(default_factory=ActivationParams)


def query_entities(runtime: Runtime, namespace: str, query: str) -> list[str]:
    """The ids of the known entities the query names."""
    mentions = runtime.extractor.names(query)
    if not mentions:
        return []
    resolved = resolve_names(runtime, namespace, [name_ref(m) for m in mentions], by_embedding=False)
    return sorted({r.entity_id for r in resolved.values() if r.entity_id is not None})


def graph_channel(
    runtime: Runtime, request: GraphQuery, named: Sequence[str], text_hits: Sequence[str]
) -> list[Ranked]:
    """Memory ids with graph scores, best first, from the entities the query names (see
    ``query_entities``) and the other channels' top hits."""
    return runtime.store.read_in(lambda tx: _activate(tx, request, named, text_hits))


def _activate(tx: Transaction, request: GraphQuery, named: Sequence[str], text_hits: Sequence[str]) -> list[Ranked]:
    if not named and not text_hits:
        return []
    mentions: dict[str, int] = {}
    seeds: dict[str, float] = {}
    rows = tx.run("seed_entities", named=list(named), hits=list(text_hits), namespace=request.namespace)
    for row in rows:
        mentions[row["id"]] = row["mentions"] or 1
        weight = 1.0 if row["named"] else HIT_SEED_WEIGHT
        seeds[row["id"]] = max(weight, seeds.get(row["id"], 0.0))
    if not seeds:
        return []
    [count] = tx.run("namespace_episode_count", namespace=request.namespace)

    def expand(frontier: list[str]) -> Iterator[Edge]:
        for row in tx.run_listed(
            "graph_expand",
            frontier=frontier,
            namespace=request.namespace,
            as_of=request.as_of,
            known_at=request.known_at,
        ):
            mentions.setdefault(row["target"], row["target_mentions"] or 1)
            yield Edge(row["source"], row["target"], row["type"], float(row["strength"]), row["degree"])

    weights = entity_weights(spread(seeds, expand, request.params), mentions, count["episodes"])
    informative = [(entity, weight) for entity, weight in weights.items() if weight > 0]
    strongest = sorted(informative, key=lambda item: (-item[1], item[0]))[:MAX_SCORED_ENTITIES]
    rows = tx.run_listed(
        "graph_memories",
        entities=[{"id": entity, "weight": weight} for entity, weight in strongest],
        namespace=request.namespace,
        limit=request.limit,
    )
    return [Ranked(row["id"], row["score"], row["label"]) for row in rows]
