"""The graph channel (DESIGN §6): from the entities a query names, activation spreads over typed
and co-occurrence edges, and memories score by the activation of the entities they involve.

Seeds are the query's own entities, resolved the way consolidation resolves names (exact key,
alias, spelling); a query that names none borrows the entities of the other channels' top hits.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from hippograph.consolidation.resolve import name_ref, resolve_names
from hippograph.extraction.pipeline import Turn
from hippograph.recall.activation import ActivationParams, Edge, entity_weights, spread
from hippograph.runtime import Runtime
from hippograph.store import Transaction

# Only the strongest activated entities score memories: the tail adds rows, not ranking.
MAX_SCORED_ENTITIES = 64


@dataclass(frozen=True)
class GraphQuery:
    namespace: str
    query: str
    as_of: datetime
    known_at: datetime
    limit: int
    params: ActivationParams = field(default_factory=ActivationParams)


def query_entities(runtime: Runtime, namespace: str, query: str) -> list[str]:
    """The ids of the known entities the query names."""
    mentions = runtime.extractor.extract(Turn(query)).mentions
    if not mentions:
        return []
    resolved = resolve_names(runtime, namespace, [name_ref(m) for m in mentions], by_embedding=False)
    return sorted({r.entity_id for r in resolved.values() if r.entity_id is not None})


def graph_channel(runtime: Runtime, request: GraphQuery, fallback_hits: Sequence[str]) -> list[tuple[str, float]]:
    """Memory ids with graph scores, best first."""
    seeds = query_entities(runtime, request.namespace, request.query)
    return runtime.store.read_in(lambda tx: _activate(tx, request, seeds, fallback_hits))


def _activate(
    tx: Transaction, request: GraphQuery, seeds: list[str], fallback_hits: Sequence[str]
) -> list[tuple[str, float]]:
    query = "entity_mentions" if seeds else "hit_entities"
    rows = tx.run(query, ids=seeds or list(fallback_hits), namespace=request.namespace)
    mentions = {row["id"]: row["mentions"] or 1 for row in rows}
    if not mentions:
        return []

    def expand(frontier: list[str]) -> Iterator[Edge]:
        for row in tx.run(
            "graph_expand",
            frontier=frontier,
            namespace=request.namespace,
            as_of=request.as_of,
            known_at=request.known_at,
        ):
            mentions.setdefault(row["target"], row["target_mentions"] or 1)
            yield Edge(row["source"], row["target"], row["type"], float(row["strength"]), row["degree"])

    weights = entity_weights(spread(mentions, expand, request.params), mentions)
    strongest = sorted(weights.items(), key=lambda item: (-item[1], item[0]))[:MAX_SCORED_ENTITIES]
    rows = tx.run(
        "graph_memories",
        entities=[{"id": entity, "weight": weight} for entity, weight in strongest],
        namespace=request.namespace,
        limit=request.limit,
    )
    return [(row["id"], row["score"]) for row in rows]
