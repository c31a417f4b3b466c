"""The vector channel keeps to its namespace: a small namespace whose text is drowned by a larger
one holding near-copies of it still gets its own nearest neighbours, by either way of searching
(recall/vector.py), and never another namespace's."""

from __future__ import annotations

import itertools
import math
import uuid
from collections.abc import Callable, Sequence

import pytest
from support.client import GraphQLClient

from hippograph.embedding import Vector
from hippograph.recall.channels import MIN_COSINE
from hippograph.recall.fusion import Ranked
from hippograph.recall.vector import VectorQuery, exact_neighbours, indexed_neighbours
from hippograph.runtime import Runtime
from hippograph.store import Store, Transaction

Search = Callable[[Store, Transaction, VectorQuery], list[Ranked]]

NAMES = ("Alice", "Bruno", "Chen", "Dara", "Emil")
ACTIVITIES = (
    "went hiking in the mountains",
    "baked sourdough bread",
    "adopted a rescue puppy",
    "started learning the violin",
    "ran a half marathon",
    "painted the kitchen blue",
    "planted tomatoes in the garden",
    "fixed an old bicycle",
)
TIMES = ("last Monday", "over the weekend", "in early spring")
QUESTIONS = (
    "Who adopted a rescue puppy?",
    "Alice baked sourdough bread",
    "Who ran a half marathon?",
    "Dara went hiking",
)
K = 10
# Stored vectors come from batches, the reference's from another batch: equal to ~1e-6.
TOLERANCE = 1e-4


def _texts() -> list[str]:
    return [f"{name} {activity} {time}." for name, activity, time in itertools.product(NAMES, ACTIVITIES, TIMES)]


def _capture(gql: GraphQLClient, namespace: str, texts: Sequence[str]) -> dict[str, str]:
    """Capture ``texts`` into ``namespace``; their ids → text."""
    ids: dict[str, str] = {}
    for start in range(0, len(texts), 64):
        chunk = texts[start : start + 64]
        inputs = [{"namespace": namespace, "content": text, "agent": "test", "session": "s"} for text in chunk]
        results = gql.data("captureBatch", inputs=inputs)["captureBatch"]
        assert [r["status"] for r in results] == ["CREATED"] * len(chunk)
        ids |= {r["id"]: text for r, text in zip(results, chunk, strict=True)}
    return ids


@pytest.fixture(scope="module")
def drowned(runtime: Runtime, gql: GraphQLClient) -> tuple[str, dict[str, str]]:
    """A namespace of 30 texts beside one of 240 that holds each of their kind twice."""
    texts = _texts()
    ours = f"vec-small-{uuid.uuid4().hex[:8]}"
    theirs = f"vec-large-{uuid.uuid4().hex[:8]}"
    _capture(gql, theirs, [*texts, *(f"Honestly, {text}" for text in texts)])
    return ours, _capture(gql, ours, texts[::4])


def _cosine(a: Vector, b: Vector) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True)) / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))


def _reference(runtime: Runtime, episodes: dict[str, str], query: Vector) -> dict[str, float]:
    """Exact cosine of the query against every episode of the namespace, embedded here."""
    vectors = runtime.embedder.embed(list(episodes.values()))
    return {memory_id: _cosine(query, vector) for memory_id, vector in zip(episodes, vectors, strict=True)}


def _assert_nearest(got: Sequence[str], cosines: dict[str, float], k: int) -> None:
    """``got`` is the namespace's k nearest of those over the threshold, up to ties within the
    tolerance."""
    assert len(got) >= 3, "the question should find some of the namespace's episodes"
    assert set(got) <= set(cosines), "a hit from outside the namespace"
    over = sorted((c for c in cosines.values() if c >= MIN_COSINE - TOLERANCE), reverse=True)
    surely_over = [c for c in over if c >= MIN_COSINE + TOLERANCE]
    assert min(k, len(surely_over)) <= len(got) <= min(k, len(over))
    kth = over[len(got) - 1]
    assert all(cosines[memory_id] >= kth - TOLERANCE for memory_id in got), "a nearer episode was missed"


def test_recall_vector_channel_finds_the_namespace_own_neighbours(
    runtime: Runtime, gql: GraphQLClient, drowned: tuple[str, dict[str, str]]
) -> None:
    namespace, episodes = drowned
    for question in QUESTIONS:
        cosines = _reference(runtime, episodes, runtime.embedder.embed_query(question))
        hits = gql.data(
            "recall",
            input={"namespace": namespace, "query": question, "limit": K, "channels": ["VECTOR"], "countAccess": False},
        )["recall"]["hits"]
        _assert_nearest([hit["memory"]["id"] for hit in hits], cosines, K)


@pytest.mark.parametrize("search", [exact_neighbours, indexed_neighbours], ids=["exact", "index"])
def test_both_ways_of_searching_agree_with_exact_cosine(
    runtime: Runtime, drowned: tuple[str, dict[str, str]], search: Search
) -> None:
    namespace, episodes = drowned
    for question in QUESTIONS:
        embedding = runtime.embedder.embed_query(question)
        query = VectorQuery(namespace, embedding, K, MIN_COSINE)
        ranked = runtime.store.read_in(lambda tx, q=query: search(runtime.store, tx, q))
        cosines = _reference(runtime, episodes, embedding)
        _assert_nearest([r.id for r in ranked], cosines, K)
        # Scored as the indexes score: (1 + cosine) / 2, best first.
        for r in ranked:
            assert r.score == pytest.approx((1 + cosines[r.id]) / 2, abs=TOLERANCE)
        assert [r.score for r in ranked] == sorted((r.score for r in ranked), reverse=True)


def test_a_namespace_without_episodes_gets_no_vector_hits(
    gql: GraphQLClient, drowned: tuple[str, dict[str, str]]
) -> None:
    hits = gql.data(
        "recall",
        input={"namespace": f"vec-empty-{uuid.uuid4().hex[:8]}", "query": QUESTIONS[0], "channels": ["VECTOR"]},
    )["recall"]["hits"]
    assert hits == []
