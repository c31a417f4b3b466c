"""The named queries whose rows are typed: each query's name with the record its rows are, in one
place, so that mypy strict reaches through the store and a renamed column fails a test
(tests/test_queries.py runs each declared query on the real store and compares its columns).

The records are TypedDicts: a row stays the dict the driver's record became, so typing costs a
recall nothing per row. A query that returns ``RETURN collect(...) AS rows`` (``listed``) declares
the maps in its list, as ``Transaction.run_listed`` returns them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Generic, TypedDict, TypeVar

R = TypeVar("R")


@dataclass(frozen=True)
class Query(Generic[R]):
    """A named query of cypher/ and the record of its rows."""

    name: str
    row: type[R]
    listed: bool = False


def declared() -> list[Query[object]]:
    """Every query declared here, for the test that runs them all."""
    return [value for value in globals().values() if isinstance(value, Query)]


# Memories, by id, as the service builds Episode and Fact of them (store/memories.py).


class EpisodeRow(TypedDict):
    id: str
    namespace: str
    content: str
    role: str
    agent: str
    session: str | None
    occurred_at: datetime
    captured_at: datetime
    content_hash: str
    importance: float
    pinned: bool | None
    tags: list[str] | None
    observed_by: list[str] | None
    access_count: int | None
    last_accessed_at: datetime | None
    forgotten_at: datetime | None
    state: str
    metadata: str | None
    embedded: bool
    category: str | None


class FactRow(TypedDict):
    id: str
    namespace: str
    statement: str
    kind: str
    key: str | None
    subject: str | None
    predicate: str | None
    object: str | None
    confidence: float
    importance: float
    version: int
    status: str
    origin: str
    valid_from: datetime | None
    valid_to: datetime | None
    valid_precision: str | None
    recorded_at: datetime
    expired_at: datetime | None
    pinned: bool | None
    tags: list[str] | None
    access_count: int | None
    last_accessed_at: datetime | None
    forgotten_at: datetime | None
    supported_by: list[str]
    category: str | None


class IdRow(TypedDict):
    id: str


EPISODES_BY_ID = Query("episodes_by_id", EpisodeRow, listed=True)
FACTS_BY_ID = Query("facts_by_id", FactRow, listed=True)
PAGE_EPISODES = Query("page_episodes", IdRow)
PAGE_FACTS = Query("page_facts", IdRow)
SESSION_CHAIN = Query("session_chain", IdRow)


# Recall: authorization reads what scoring needs with the memory (recall/authorize.py).


class AuthorizedEpisodeRow(EpisodeRow):
    holds: list[str]
    replaced_by: list[str]
    dated: list[datetime | None]


class AuthorizedFactRow(FactRow):
    replaces: list[str]
    replaced_by: list[str]


AUTHORIZE_EPISODES = Query("authorize_episodes", AuthorizedEpisodeRow, listed=True)
AUTHORIZE_FACTS = Query("authorize_facts", AuthorizedFactRow, listed=True)
CORE_FACTS = Query("core_facts", IdRow)


# Recall's channels (recall/channels.py, vector.py, graph.py).


class KeywordHit(TypedDict):
    id: str
    label: str
    score: float


class Similar(TypedDict):
    id: str
    similarity: float


class ExactScores(TypedDict):
    """Each kind's nearest memories in a namespace, scored exactly (vector_exact.cypher)."""

    episodes: list[Similar]
    facts: list[Similar]
    contexts: list[Similar]


class IndexAnswer(TypedDict):
    """One vector index's neighbours in the namespace, with how many it gave and the lowest score."""

    index: str
    returned: int
    lowest: float | None
    rows: list[KeywordHit]


class VectorScope(TypedDict):
    episodes: int
    store_episodes: int
    store_facts: int


class EpisodeCount(TypedDict):
    episodes: int


class SeedNode(TypedDict):
    id: str
    label: str
    df: int
    via: str | None
    # A typed edge's neighbour only: its support, last support and confidence (kernel/strength.py).
    supports: int | None
    last_support: datetime | None
    confidence: float | None


class NodeMemory(TypedDict):
    node: str
    memory: str
    label: str


class GraphStep(TypedDict):
    """One step of the graph channel's walk: the namespace's episode count, the seed nodes that
    are not hubs, and the memories of the new ones."""

    episodes: int
    seeds: list[SeedNode]
    links: list[NodeMemory]


class NextEpisode(TypedDict):
    memory: str
    neighbour: str


FULLTEXT_SEARCH = Query("fulltext_search", KeywordHit, listed=True)
VECTOR_EXACT = Query("vector_exact", ExactScores)
VECTOR_SEARCH = Query("vector_search", IndexAnswer, listed=True)
VECTOR_SCOPE = Query("vector_scope", VectorScope)
NAMESPACE_EPISODE_COUNT = Query("namespace_episode_count", EpisodeCount)
GRAPH_WALK = Query("graph_walk", GraphStep)
GRAPH_NEXT_EPISODES = Query("graph_next_episodes", NextEpisode, listed=True)


# A namespace's settings (store/namespaces.py).


class ConflictModesRow(TypedDict):
    """The conflict mode a namespace set for each kind (kernel ConflictKind); None: the default."""

    attribute: str | None
    relation: str | None


CONFLICT_MODES = Query("conflict_modes", ConflictModesRow)
