"""A process's copy of namespaces' vectors (store/vector_cache.py) scores what the server would:
on plain data, after any run of writes, clears and new epochs; and over the real store, in a
second process's store (its own copy) after each kind of write another process makes. Every
statement in cypher/ that writes vectors is numbered (store/vector_stamps.py)."""

from __future__ import annotations

import math
import re
import uuid
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.client import GraphQLClient
from support.operations import consolidate_over_api, erase, remember
from support.peer import Peer, peer

from hippograph.kernel.resources import resource_root
from hippograph.recall.channels import MIN_COSINE
from hippograph.runtime import Runtime
from hippograph.store.rows import VectorMemory
from hippograph.store.vector_cache import ALL, KEPT_UP_TO, Changes, Flag, VectorCache
from hippograph.store.vector_stamps import VECTOR_WRITERS
from hippograph.store.vectors import (
    CONTEXTS,
    EPISODES,
    FACTS,
    Kind,
    Ranked,
    VectorQuery,
    exact_neighbours,
)

DIMENSION = 4
# No cosine of two vectors of small integers comes within float32's error of it.
THRESHOLD = 0.1234567
FLAGS: frozenset[Flag] = frozenset({"episodes", "contexts", "facts"})


# On plain data.


def _vector() -> st.SearchStrategy[list[float] | None]:
    return st.one_of(st.none(), st.lists(st.integers(-3, 3).map(float), min_size=DIMENSION, max_size=DIMENSION))


_memory = st.builds(
    lambda n, fact, embedding, context: VectorMemory(
        id=f"m{n}", label="Fact" if fact else "Episode", embedding=embedding, context=None if fact else context
    ),
    st.integers(0, 7),
    st.booleans(),
    _vector(),
    _vector(),
)


def _brute_force(kept: dict[str, Sequence[float]], query: Sequence[float], limit: int) -> list[tuple[str, float]]:
    def cosine(vector: Sequence[float]) -> float | None:
        norms = math.dist(vector, [0.0] * DIMENSION) * math.dist(query, [0.0] * DIMENSION)
        return sum(a * b for a, b in zip(vector, query, strict=True)) / norms if norms else None

    scored = [(id, c) for id, vector in kept.items() if (c := cosine(vector)) is not None and c >= THRESHOLD]
    return sorted(scored, key=lambda hit: -hit[1])[:limit]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(_memory, max_size=6), min_size=1, max_size=5),
    st.lists(st.integers(-3, 3).map(float), min_size=DIMENSION, max_size=DIMENSION),
    st.integers(1, 5),
)
def test_the_copy_scores_each_kind_as_the_server_after_any_writes(
    batches: list[list[VectorMemory]], query: list[float], limit: int
) -> None:
    """Each batch is what the stream numbered next; the copy reads only what came after its number,
    and ranks each kind as exact cosine does over what the server holds then."""
    cache = VectorCache(1 << 20)
    if not any(query):  # a zero query has no cosine: the server answers
        assert cache.nearest("ns", ("epoch", 1), lambda since: batches[0], query, THRESHOLD, limit, FLAGS) is None
        return
    held: dict[Flag, dict[str, Sequence[float]]] = {flag: {} for flag in FLAGS}
    for seq, batch in enumerate(batches, start=1):
        for memory in batch:
            kinds: list[tuple[Flag, Sequence[float] | None]] = (
                [("facts", memory["embedding"])]
                if memory["label"] == "Fact"
                else [("episodes", memory["embedding"]), ("contexts", memory["context"])]
            )
            for flag, vector in kinds:
                if vector is None:
                    held[flag].pop(memory["id"], None)
                else:
                    held[flag][memory["id"]] = vector
        asked: list[int] = []

        def changes(since: int, batch: list[VectorMemory] = batch, asked: list[int] = asked) -> list[VectorMemory]:
            asked.append(since)
            return batch

        found = cache.nearest("ns", ("epoch", seq), changes, query, THRESHOLD, limit, FLAGS)
        assert asked == [seq - 1 if seq > 1 else ALL]  # nothing read twice, nothing skipped
        assert found is not None
        for flag in FLAGS:
            expected = _brute_force(held[flag], query, limit)
            assert np.allclose([c for _, c in found[flag]], [c for _, c in expected], atol=1e-5)
            truth = dict(_brute_force(held[flag], query, len(held[flag])))
            assert all(math.isclose(truth[id], c, abs_tol=1e-5) for id, c in found[flag])
        # Asked again at the same number, the copy reads nothing.
        assert cache.nearest("ns", ("epoch", seq), changes, query, THRESHOLD, limit, FLAGS) == found
        assert len(asked) == 1


def test_a_new_epoch_reads_the_namespace_again_whole() -> None:
    """Memories deleted since are gone from the copy: a new epoch drops everything it held."""
    cache = VectorCache(1 << 20)
    first = [VectorMemory(id="a", label="Episode", embedding=[1.0, 0.0], context=None)]
    then = [VectorMemory(id="b", label="Episode", embedding=[0.9, 0.1], context=None)]
    assert cache.nearest("ns", ("one", 3), lambda since: first, [1.0, 0.0], 0.1, 5, FLAGS) is not None
    asked: list[int] = []

    def whole(since: int) -> list[VectorMemory]:
        asked.append(since)
        return then

    found = cache.nearest("ns", ("two", 3), whole, [1.0, 0.0], 0.1, 5, FLAGS)
    assert asked == [ALL]
    assert found is not None and [id for id, _ in found["episodes"]] == ["b"]


def test_copies_beyond_the_bound_go_least_recently_used_first() -> None:
    row = [VectorMemory(id="a", label="Episode", embedding=[1.0] * 8, context=None)]
    one = VectorCache(0)
    assert one.nearest("ns", ("e", 1), lambda since: row, [1.0] * 8, 0.1, 5, FLAGS) is None  # 0 keeps none
    probe = VectorCache(1 << 20)
    probe.nearest("x", ("e", 1), lambda since: row, [1.0] * 8, 0.1, 5, FLAGS)
    size = probe.nbytes
    cache = VectorCache(2 * size)
    reads: list[str] = []

    def changes(namespace: str) -> Changes:
        def read(since: int) -> list[VectorMemory]:
            reads.append(namespace)
            return row

        return read

    for namespace in ("a", "b", "a", "c", "a", "b"):
        cache.nearest(namespace, ("e", 1), changes(namespace), [1.0] * 8, 0.1, 5, FLAGS)
        assert cache.nbytes <= 2 * size
    # "c" pushed out "b" (least recently used), never "a", which was used in between.
    assert reads == ["a", "b", "c", "b"]


def test_a_namespace_is_kept_while_it_has_an_epoch_and_fits() -> None:
    row = [VectorMemory(id="a", label="Episode", embedding=[1.0] * 8, context=[1.0] * 8)]
    probe = VectorCache(1 << 20)
    probe.nearest("x", ("e", 1), lambda since: row, [1.0] * 8, 0.1, 5, FLAGS)
    cache = VectorCache(probe.nbytes - 1)
    assert cache.keeps("ns", "e", KEPT_UP_TO)
    assert not cache.keeps("ns", None, 10)  # nothing numbered yet
    assert not cache.keeps("ns", "e", KEPT_UP_TO + 1)
    assert not VectorCache(0).keeps("ns", "e", 10)
    # A copy larger than the whole bound answers once, and is not kept again.
    assert cache.nearest("ns", ("e", 1), lambda since: row, [1.0] * 8, 0.1, 5, FLAGS) is not None
    assert cache.nbytes == 0
    assert not cache.keeps("ns", "e", 10)
    assert cache.keeps("other", "e", 10)


def test_a_vector_of_another_dimension_leaves_the_scoring_to_the_server() -> None:
    cache = VectorCache(1 << 20)
    rows = [
        VectorMemory(id="a", label="Episode", embedding=[1.0, 0.0], context=None),
        VectorMemory(id="b", label="Episode", embedding=[1.0, 0.0, 0.0], context=None),
    ]
    assert cache.nearest("ns", ("e", 1), lambda since: rows, [1.0, 0.0], 0.1, 5, FLAGS) is None
    assert cache.nbytes == 0
    assert not cache.keeps("ns", "e", 2)  # not read whole again by every recall


def test_every_statement_that_writes_vectors_numbers_them() -> None:
    """A statement in cypher/ that sets or clears an episode's or fact's vector, creates one of
    them or deletes one must be listed in store/vector_stamps.py; otherwise other processes' copies
    would never hear of its write. Entities' vectors are not recall's."""
    writes = [
        re.compile(r"\b\w+\.(?:embedding|context_embedding)\s*=(?!=)"),
        re.compile(r"REMOVE\s+\w+\.(?:context_)?embedding"),
        re.compile(r"CREATE\s*\(\w+:(?:Episode|Fact|NODE_LABEL)\b"),
        re.compile(r"MATCH\s*\((\w+):(?:Episode|Fact|NODE_LABEL)\b[\s\S]*DELETE\s+\1\b"),
    ]
    found = set()
    for path in (resource_root() / "cypher").rglob("*.cypher"):
        text = "\n".join(line for line in path.read_text().splitlines() if not line.lstrip().startswith("//"))
        if any(pattern.search(text) for pattern in writes):
            found.add(path.stem)
    assert found - {"merge_entities"} == VECTOR_WRITERS


# Over the real store: a second process keeps its own copy.


def _served(runtime: Runtime, query: VectorQuery) -> list[Ranked]:
    store = runtime.store
    return store.read_each(lambda tx: exact_neighbours(store, tx, query, query.kinds))


def _assert_same(kept: list[Ranked], served: list[Ranked]) -> None:
    """The same hits with the same scores, but for the order of ties (float32 against the server's
    arithmetic). An episode may be there twice, by its own vector and by its context vector."""
    assert served, "the question should find something"
    assert [hit.score for hit in kept] == pytest.approx([hit.score for hit in served], abs=1e-5)
    boundary = served[-1].score
    for hit in kept:
        same = [other.score for other in served if other.id == hit.id]
        assert any(score == pytest.approx(hit.score, abs=1e-5) for score in same) or hit.score == pytest.approx(
            boundary, abs=1e-5
        ), f"{hit} is not the server's"


@pytest.mark.process
def test_another_process_copy_follows_every_kind_of_write(runtime: Runtime, gql: GraphQLClient) -> None:
    with peer(runtime.settings) as other:
        _follow_writes(runtime, gql, other)


def _follow_writes(runtime: Runtime, gql: GraphQLClient, other: Peer) -> None:
    namespace = f"vec-cache-{uuid.uuid4().hex[:8]}"
    texts = [
        "Maria adopted a rescue puppy named Biscuit.",
        "Tom ran a half marathon in Lisbon.",
        "Maria painted the kitchen blue.",
        "Tom fixed an old bicycle over the weekend.",
        "Maria started learning the violin.",
        "Tom baked sourdough bread for the neighbours.",
    ]
    inputs = [{"namespace": namespace, "content": text, "agent": "test", "session": "s"} for text in texts]
    gql.data("captureBatch", inputs=inputs)

    def query(question: str, kinds: tuple[Kind, ...] = (EPISODES, FACTS, CONTEXTS)) -> VectorQuery:
        return VectorQuery(namespace, runtime.embedder.embed_query(question), 10, MIN_COSINE, kinds)

    def check(question: str, kinds: tuple[Kind, ...] = (EPISODES, FACTS, CONTEXTS)) -> list[Ranked]:
        asked = query(question, kinds)
        kept, size = other.vector_channel(
            namespace, asked.embedding, [kind.exact_flag for kind in kinds], asked.limit, asked.min_cosine
        )
        assert size > 0, "the other process should score from its copy"
        _assert_same(kept, _served(runtime, asked))
        return kept

    check("Who adopted a puppy?")

    # A capture elsewhere: the copy reads it.
    [new] = gql.data(
        "captureBatch",
        inputs=[{"namespace": namespace, "content": "Maria tamed a wild falcon.", "agent": "test", "session": "s"}],
    )["captureBatch"]
    assert check("Who tamed a falcon?", (EPISODES,))[0].id == new["id"]

    # Consolidation's facts and context vectors.
    consolidate_over_api(gql, namespace)
    facts = check("Who tamed a falcon?", (FACTS,))
    assert facts, "consolidation should have made a fact of the falcon"
    check("Who adopted a puppy?", (CONTEXTS,))

    # A fact stated directly.
    stated = remember(gql, namespace, "Maria is allergic to cats.")["fact"]
    assert check("Is Maria allergic to cats?", (FACTS,))[0].id == stated["id"]

    # An erase: gone from the copy too.
    question = "Maria adopted a puppy and tamed a falcon."
    assert new["id"] in {hit.id for hit in check(question)}
    erase(gql, namespace, new["id"])
    assert new["id"] not in {hit.id for hit in check(question)}
