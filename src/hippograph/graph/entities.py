"""Reading the derived graph: entities, their neighborhoods as of a time, and fact timelines."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields
from datetime import datetime
from typing import Any

from hippograph.extraction.directions import reverse_type
from hippograph.kernel.config import RelationStrength
from hippograph.kernel.errors import ErrorCode, HippographError, bad_input
from hippograph.kernel.lucene import fulltext_query
from hippograph.kernel.model import Entity, Fact
from hippograph.kernel.strength import strength
from hippograph.kernel.validation import validate_namespace
from hippograph.store import Store
from hippograph.store.memories import hydrate
from hippograph.store.rows import (
    ENTITIES_BY_IDS,
    ENTITY_BY_ID,
    ENTITY_TIMELINE,
    NEIGHBORHOOD,
    PAGE_ENTITIES,
    SEARCH_ENTITIES,
    EntityMap,
    NeighborhoodEdge,
)
from hippograph.store.search import scoped_query

__all__ = [
    "MAX_DEPTH",
    "GraphEdge",
    "Neighborhood",
    "TimelineEntry",
    "get_entity",
    "list_entities",
    "neighborhood",
    "timeline",
]

MAX_DEPTH = 3
MAX_EDGES = 500


@dataclass(frozen=True)
class GraphEdge:
    """An edge as stored, once, from ``source`` to ``target``; ``inverse`` is what it means read
    from the target (extract/relation_directions.toml). Typed edges carry their ``fact``,
    ``confidence``, ``support`` (episodes supporting the fact, as of the read) and ``strength``;
    CO_OCCURS its ``count``."""

    type: str
    source: str
    target: str
    valid_from: datetime | None
    valid_to: datetime | None
    recorded_at: datetime | None
    expired_at: datetime | None
    count: int | None
    fact: str | None
    confidence: float | None = None
    support: int | None = None
    last_support: datetime | None = None
    strength: float | None = None
    inverse: str | None = None


@dataclass(frozen=True)
class Neighborhood:
    nodes: list[Entity]
    edges: list[GraphEdge]


@dataclass(frozen=True)
class TimelineEntry:
    fact: Fact
    supersedes: list[str]
    superseded_by: list[str]
    contradicts: list[str]


def get_entity(store: Store, namespace: str, entity_id: str) -> Entity:
    validate_namespace(namespace)
    rows = store.read(ENTITY_BY_ID, namespace=namespace, id=entity_id)
    if not rows:
        raise HippographError(ErrorCode.NOT_FOUND, f"no entity {entity_id!r} in namespace {namespace!r}")
    return _entity(rows[0]["entity"])


def list_entities(
    store: Store, namespace: str, *, search: str | None, entity_type: str | None, skip: int, first: int
) -> list[Entity]:
    """A page of entities: by name match when searching, else the most mentioned first."""
    validate_namespace(namespace)
    params: dict[str, Any] = {"namespace": namespace, "type": entity_type, "skip": skip, "limit": first}
    if search is None:
        rows = store.read(PAGE_ENTITIES, **params)
    else:
        query = fulltext_query(search)
        if query is None:
            return []
        rows = store.read(
            SEARCH_ENTITIES, index=store.index("entity_search"), query=scoped_query(namespace, query), **params
        )
    return [_entity(row["entity"]) for row in rows]


def neighborhood(
    store: Store,
    namespace: str,
    entity_id: str,
    *,
    depth: int,
    as_of: datetime,
    known_at: datetime,
    scale: RelationStrength = RelationStrength(),
) -> Neighborhood:
    """What surrounded an entity at ``as_of`` (valid time) as Hippograph knew it at ``known_at``;
    typed edges with their strength at ``as_of``."""
    if not 1 <= depth <= MAX_DEPTH:
        raise bad_input(f"depth must be between 1 and {MAX_DEPTH}", field="depth")
    start = get_entity(store, namespace, entity_id)
    rows = store.read(
        NEIGHBORHOOD, namespace=namespace, id=entity_id, depth=depth, as_of=as_of, known_at=known_at, limit=MAX_EDGES
    )
    ids = sorted(({row["source"] for row in rows} | {row["target"] for row in rows}) - {start.id})
    others = [_entity(row["entity"]) for row in store.read(ENTITIES_BY_IDS, namespace=namespace, ids=ids)]
    types = {entity.id: entity.type for entity in [start, *others]}
    return Neighborhood([start, *others], [_edge(row, types, as_of, scale) for row in rows])


def _edge(row: NeighborhoodEdge, types: dict[str, str], as_of: datetime, scale: RelationStrength) -> GraphEdge:
    # The fields without a default are every edge's own, read as they are; the rest a typed edge's.
    columns: Mapping[str, Any] = row
    stored = {f.name: columns[f.name] for f in fields(GraphEdge) if f.default is MISSING}
    if row["fact"] is None:  # CO_OCCURS: proximity, no stated relation to weigh or reverse
        return GraphEdge(**stored)
    # A typed edge is recorded when it is made (create_relation), so it has a last support.
    assert row["last_support"] is not None
    return GraphEdge(
        **stored,
        confidence=row["confidence"],
        support=row["supports"],
        last_support=row["last_support"],
        strength=strength(row["supports"], row["last_support"], row["confidence"] or 0.0, as_of, scale),
        inverse=reverse_type(row["type"], types.get(row["target"])),
    )


def timeline(store: Store, namespace: str, entity_id: str) -> list[TimelineEntry]:
    get_entity(store, namespace, entity_id)
    rows = store.read(ENTITY_TIMELINE, namespace=namespace, id=entity_id)
    facts = hydrate(store, namespace, [row["id"] for row in rows])
    return [
        TimelineEntry(facts[row["id"]], row["supersedes"], row["superseded_by"], row["contradicts"])  # type: ignore[arg-type]
        for row in rows
        if row["id"] in facts
    ]


def _entity(row: EntityMap) -> Entity:
    values: dict[str, Any] = {f.name: row.get(f.name) for f in fields(Entity)}
    values["aliases"] = values["aliases"] or []
    values["mention_count"] = values["mention_count"] or 0
    return Entity(**values)
