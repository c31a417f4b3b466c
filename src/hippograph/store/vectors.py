"""Nearest neighbours by embedding, kept inside one namespace: recall's vector channel, capture's
near-duplicate check.

The vector indexes span every namespace, and neither server filters inside them through
``db.index.vector.queryNodes`` (Neo4j 5.26 has no filter for it, nor has ArcadeDB's procedure).
Asking for a fixed multiple of the neighbours needed and filtering afterwards fails a small
namespace inside a large store: when other namespaces hold similar text, every neighbour returned
may be theirs. So the channel answers one of two ways, whichever reads fewer memories:

* **exact**: every embedded episode and fact of the namespace is scored by cosine. The answer is
  exactly the namespace's nearest neighbours, however large the store; it reads the namespace.
* **index**: the indexes are asked for neighbours and the namespace's are kept; an index that gave
  too few is asked again for ×4 as many, until it has given enough of the namespace's, has no
  more, its farthest neighbour scores below the threshold (nothing further could pass), or it has
  been asked for ×4 what the namespace's share of the store should need. As good as the index's
  approximate search. When the other namespaces hold text like this one's, the neighbours it must
  read to find ``limit`` of the namespace's are ``limit × store / namespace``.

A process that keeps a copy of the namespace's vectors (store/vector_cache.py) scores it exactly
from the copy, reading only what was written since the copy was made: every namespace of up to
``KEPT_UP_TO`` episodes, whatever its share of the store. Otherwise the server chooses:
exact when ``namespace² ≤ limit × store`` (episodes, from the counts the store keeps: one read),
so either way a recall reads at most about √(limit × store) memories: ~1,700 at a limit of 30 in
a store of 100,000 episodes. Facts are not counted for this; they grow with their namespace's
episodes. That weighs a memory read either way alike, which holds for ArcadeDB. A search of one
of Neo4j's vector indexes costs a large fixed amount whatever it asks for, so there a namespace
of up to ``Dialect.vector_exact_up_to`` episodes is scored exactly too, however large a share of
the store it is.

The choice is made for each index apart, and one more thing decides it: an index that the server
rebuilds whole on the first search after a write (``Dialect.vector_rebuilt_below``: ArcadeDB
does so while it holds fewer than 1,000 vectors) is not searched. Under a stream of writes every
such search would pay that rebuild, and concurrent recalls wait for it, while scoring the
namespace's memories of that label exactly reads fewer than that many.

A recall ranks the namespace twice against its query's embedding: the vector channel by the
memories' own embeddings, the context channel by episodes' context vectors. ``vector_channels``
answers both with one read of the namespace's scope (scope_and_hits.cypher: a recall reads it
with its keyword channel's hits) and, for the kinds scored exactly, one pass over
the namespace's vectors: those the process keeps (store/vector_cache.py), brought up to date with
what was written since, else the server's, in one read that takes each episode once for both of
its vectors (docs/benchmarks.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

from hippograph.store.dialect import Dialect
from hippograph.store.rows import SCOPE_AND_HITS, VECTOR_CHANGES, VECTOR_EXACT, VECTOR_SEARCH, VectorScope
from hippograph.store.store import Store, Transaction
from hippograph.store.vector_cache import VectorCache

__all__ = [
    "CONTEXTS",
    "EPISODES",
    "FACTS",
    "KINDS",
    "Kind",
    "Ranked",
    "VectorAnswers",
    "VectorQuery",
    "cosine_of",
    "exact_kinds",
    "exact_neighbours",
    "indexed_neighbours",
    "nearest",
    "neighbours",
    "score_of",
    "vector_channels",
    "vector_scope",
]


class Ranked(NamedTuple):
    """One channel's hit: ids and scores only, and the label, so that authorization looks each id
    up once, under the right label."""

    id: str
    score: float
    label: str


# The first request to an index asks for this many times the neighbours needed, later ones ×WIDEN.
OVERSAMPLE = 2
WIDEN = 4


@dataclass(frozen=True)
class Kind:
    """Memories of one label, as the vector channel searches them."""

    index: str  # the vector index over them
    # The parameter of vector_exact.cypher that scores them, and the column of its answer.
    exact_flag: Literal["episodes", "facts", "contexts"]
    stored: Literal["store_episodes", "store_facts"]  # the column of the scope that counts them
    label: str


EPISODES = Kind("episode_embedding", "episodes", "store_episodes", "Episode")
FACTS = Kind("fact_embedding", "facts", "store_facts", "Fact")
# Episodes' context vectors (embedding/context.py): the context channel's own ranking.
CONTEXTS = Kind("episode_context_embedding", "contexts", "store_episodes", "Episode")
KINDS = (EPISODES, FACTS)


@dataclass(frozen=True)
class VectorQuery:
    namespace: str
    embedding: Sequence[float]
    limit: int
    min_cosine: float
    kinds: tuple[Kind, ...] = KINDS  # ranked together


@dataclass(frozen=True)
class VectorAnswers:
    rankings: list[list[Ranked]]  # one per query, in their order
    # The namespace's scope, read for the search (or given); it carries the graph's version too,
    # which the graph channel then need not read again.
    scope: VectorScope


def vector_channels(store: Store, queries: Sequence[VectorQuery], scope: VectorScope | None = None) -> VectorAnswers:
    """For each query, the namespace's ``limit`` memories of its kinds nearest to the embedding
    with a cosine of at least ``min_cosine``, best first, scored as the indexes score. The queries
    share their namespace, embedding and minimum cosine (each has its kinds and limit), and are
    answered together: one read of the namespace's scope (none when ``scope`` is given: a recall's
    keyword channel read it), one pass over the namespace's vectors for the kinds scored exactly,
    those the process keeps when it may. The statements need no one snapshot: the hits are ids,
    which authorization reads again."""

    def search(tx: Transaction) -> VectorAnswers:
        read = scope if scope is not None else vector_scope(tx, queries[0].namespace)
        return VectorAnswers(nearest_each(store, tx, queries, read, cache=store.vector_cache), read)

    return store.read_each(search)


def vector_scope(tx: Transaction, namespace: str) -> VectorScope:
    """What the vector channel weighs before choosing how to search: the namespace's scope, with no
    full-text search beside it (scope_and_hits.cypher)."""
    [scope] = tx.run(SCOPE_AND_HITS, namespace=namespace, searches=[], limit=0)
    return scope


def nearest(store: Store, tx: Transaction, query: VectorQuery, scope: VectorScope | None = None) -> list[Ranked]:
    """``vector_channels`` of one query inside a transaction of the caller's; ``scope``: the
    namespace's scope (``vector_scope``), when the caller read it already for another query of the
    namespace."""
    [ranked] = nearest_each(store, tx, [query], scope)
    return ranked


def nearest_each(
    store: Store,
    tx: Transaction,
    queries: Sequence[VectorQuery],
    scope: VectorScope | None = None,
    *,
    cache: VectorCache | None = None,
) -> list[list[Ranked]]:
    """``vector_channels`` inside a transaction of the caller's, scoring from ``cache`` where it
    may. Never inside a write: the copy would keep what the write has not committed."""
    first = queries[0]
    if any(
        (q.namespace, q.min_cosine, q.embedding) != (first.namespace, first.min_cosine, first.embedding)
        for q in queries
    ):
        raise ValueError("queries searched together share their namespace, embedding and minimum cosine")
    if scope is None:
        scope = vector_scope(tx, first.namespace)
    kept: _Kept | None = None
    if cache is not None and cache.keeps(first.namespace, scope["vector_epoch"], scope["episodes"]):
        kept = _Kept(cache, scope)
        exact = [frozenset(q.kinds) for q in queries]  # from the copy: no read of the namespace
    else:
        exact = [exact_kinds(scope, q.limit, store.dialect, q.kinds) for q in queries]
    # Widening stops at WIDEN times what a namespace of this share needs when its text is like
    # the others': a namespace with few facts among many like them elsewhere would otherwise
    # read the whole fact index (the counts are of episodes, not facts).
    max_ks = [WIDEN * q.limit * scope["store_episodes"] // max(scope["episodes"], 1) for q in queries]
    return _neighbours(store, tx, queries, exact, max_ks, kept)


def exact_kinds(scope: VectorScope, limit: int, dialect: Dialect, kinds: Sequence[Kind] = KINDS) -> frozenset[Kind]:
    """The kinds to score exactly, given the scope's counts (``vector_scope``): all when the namespace is a
    small share of the store or no larger than a search of the server's indexes costs, and any
    whose index the server would rebuild on this search."""
    episodes = scope["episodes"]
    if episodes <= dialect.vector_exact_up_to or episodes**2 <= limit * scope["store_episodes"]:
        return frozenset(kinds)
    return frozenset(kind for kind in kinds if scope[kind.stored] < dialect.vector_rebuilt_below)


def neighbours(
    store: Store, tx: Transaction, query: VectorQuery, exact: frozenset[Kind], max_k: int | None = None
) -> list[Ranked]:
    """The namespace's nearest memories: the ``exact`` kinds scored exactly, the others through
    their indexes."""
    [ranked] = _neighbours(store, tx, [query], [exact], [max_k], None)
    return ranked


def _neighbours(
    store: Store,
    tx: Transaction,
    queries: Sequence[VectorQuery],
    exact: Sequence[frozenset[Kind]],
    max_ks: Sequence[int | None],
    kept: _Kept | None,
) -> list[list[Ranked]]:
    """``neighbours`` for each query, the kinds any of them scores exactly scored in one pass."""
    scored = exact_scores(store, tx, queries[0], frozenset().union(*exact), max(q.limit for q in queries), kept)
    answers = []
    for query, exactly, max_k in zip(queries, exact, max_ks, strict=True):
        ranked = [hit for kind in exactly for hit in scored[kind]]
        if indexed := [kind for kind in query.kinds if kind not in exactly]:
            ranked += indexed_neighbours(store, tx, query, indexed, max_k)
        answers.append(sorted(ranked, key=lambda row: -row.score)[: query.limit])
    return answers


def exact_neighbours(store: Store, tx: Transaction, query: VectorQuery, kinds: Iterable[Kind] = KINDS) -> list[Ranked]:
    """The namespace's nearest memories of these kinds, every one of them scored."""
    scored = exact_scores(store, tx, query, frozenset(kinds), query.limit)
    return sorted((hit for hits in scored.values() for hit in hits), key=lambda row: -row.score)[: query.limit]


@dataclass(frozen=True)
class _Kept:
    """The process's copies of vectors, and the namespace's stream as the recall read it."""

    cache: VectorCache
    scope: VectorScope


def exact_scores(
    store: Store, tx: Transaction, query: VectorQuery, kinds: frozenset[Kind], limit: int, kept: _Kept | None = None
) -> dict[Kind, list[Ranked]]:
    """Each of these kinds' ``limit`` nearest memories in the namespace, every one of them scored,
    in one pass (none read when no kind is asked for): from the process's copy when ``kept``
    holds one, else by the server."""
    if not kinds:
        return {}
    if kept is not None:
        found = kept.cache.nearest(
            query.namespace,
            (kept.scope["vector_epoch"], kept.scope["vector_seq"]),
            lambda since: tx.run_listed(VECTOR_CHANGES, namespace=query.namespace, since=since),
            query.embedding,
            query.min_cosine,
            limit,
            frozenset(kind.exact_flag for kind in kinds),
        )
        if found is not None:
            return {
                kind: [Ranked(id, score_of(cosine), kind.label) for id, cosine in found[kind.exact_flag]]
                for kind in kinds
            }
    cosine = store.dialect.cosine
    [row] = tx.run(
        VECTOR_EXACT,
        namespace=query.namespace,
        embedding=query.embedding,
        min_similarity=cosine.similarity_of(query.min_cosine),
        limit=limit,
        episodes=EPISODES in kinds,
        facts=FACTS in kinds,
        contexts=CONTEXTS in kinds,
    )
    return {
        kind: [Ranked(hit["id"], cosine.index_score(hit["similarity"]), kind.label) for hit in row[kind.exact_flag]]
        for kind in kinds
    }


@dataclass
class _Search:
    index: str
    k: int
    rows: Sequence[Ranked] = ()
    done: bool = False


def indexed_neighbours(
    store: Store,
    tx: Transaction,
    query: VectorQuery,
    kinds: Iterable[Kind] = KINDS,
    max_k: int | None = None,
) -> list[Ranked]:
    """The namespace's nearest memories of these kinds among their indexes' neighbours, widened
    until enough, or until an index has been asked for ``max_k``."""
    # Both servers' vector indexes score a cosine c as (1 + c) / 2 (store/dialect.py).
    min_score = (1 + query.min_cosine) / 2
    searches = [_Search(store.index(kind.index), OVERSAMPLE * query.limit) for kind in kinds]
    while pending := [s for s in searches if not s.done]:
        results = tx.run_listed(
            VECTOR_SEARCH,
            searches=[{"index": s.index, "k": s.k} for s in pending],
            embedding=query.embedding,
            min_score=min_score,
            namespace=query.namespace,
        )
        answers = {result["index"]: result for result in results}
        for search in pending:
            result = answers[search.index]
            search.rows = [Ranked(row["id"], row["score"], row["label"]) for row in result["rows"]]
            search.done = (
                len(search.rows) >= query.limit
                or result["returned"] < search.k
                or (result["lowest"] is not None and result["lowest"] < min_score)
                or (max_k is not None and search.k >= max_k)
            )
            search.k *= WIDEN
    ranked = [row for search in searches for row in search.rows]
    return sorted(ranked, key=lambda row: -row.score)[: query.limit]


def cosine_of(score: float) -> float:
    """The cosine a ``Ranked`` score stands for: both servers' indexes score a cosine c as (1 + c) / 2."""
    return 2 * score - 1


def score_of(cosine: float) -> float:
    """The ``Ranked`` score of a cosine, as the indexes score it."""
    return (1 + cosine) / 2
