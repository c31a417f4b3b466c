"""A recall's time window: given by the caller (``during``) or named by the question's own words
("in June", "last week") read from ``referenceTime``. BOOST raises the hits inside it, FILTER keeps
only those, OFF ignores it; a window that ends before it starts is refused."""

from __future__ import annotations

import pytest
from support.client import GraphQLClient
from support.operations import capture_turns, recall_over_api

from hippograph.runtime import Runtime

# The same kind of outing in three months; nothing but the time tells them apart.
TURNS = [
    ("Melanie", "Melanie: We went camping by the lake with the kids.", "2023-05-20T10:00:00Z"),
    ("Melanie", "Melanie: We went camping in the forest with the kids.", "2023-06-17T10:00:00Z"),
    ("Melanie", "Melanie: We went camping in the mountains with the kids.", "2023-07-22T10:00:00Z"),
]
ASKED_AT = "2023-12-01T12:00:00Z"


@pytest.fixture(autouse=True, scope="module")
def _models_loaded(runtime: Runtime) -> None:
    # Loading spaCy and MiniLM on a busy machine can outlast a request's timeout: not what is tested.
    runtime.warm_up()


@pytest.fixture(scope="module")
def outings(gql: GraphQLClient, module_namespace: str) -> list[str]:
    """TURNS captured once for the tests that only read them (recalls that count no access); their
    ids."""
    return capture_turns(gql, module_namespace, TURNS, session="s1")


def _hits(gql: GraphQLClient, namespace: str, question: str, **options: object) -> dict[str, dict]:
    result = recall_over_api(gql, namespace, question, limit=10, explain=True, countAccess=False, **options)
    return {hit["memory"]["id"]: hit for hit in result["hits"]}


def test_the_questions_own_words_set_the_window(gql: GraphQLClient, module_namespace: str, outings: list[str]) -> None:
    namespace = module_namespace
    may, june, july = outings
    question = "Where did Melanie go camping in June?"

    boosted = _hits(gql, namespace, question, referenceTime=ASKED_AT, window="BOOST")
    assert set(boosted) == {may, june, july}
    assert boosted[june]["explanation"]["windowFactor"] == 2
    assert boosted[may]["explanation"]["windowFactor"] == boosted[july]["explanation"]["windowFactor"] == 1
    assert max(boosted.values(), key=lambda hit: hit["score"])["memory"]["id"] == june

    assert set(_hits(gql, namespace, question, referenceTime=ASKED_AT, window="FILTER")) == {june}
    off = _hits(gql, namespace, question, referenceTime=ASKED_AT, window="OFF")
    assert set(off) == {may, june, july}
    assert {hit["explanation"]["windowFactor"] for hit in off.values()} == {1}
    # Read from another time, "June" is another June: none of these is in it.
    assert _hits(gql, namespace, question, referenceTime="2025-12-01T12:00:00Z", window="FILTER") == {}


def test_an_explicit_window_wins_over_the_words(gql: GraphQLClient, module_namespace: str, outings: list[str]) -> None:
    namespace = module_namespace
    may, _june, july = outings
    during = {"start": "2023-07-01T00:00:00Z", "end": "2023-08-01T00:00:00Z"}
    kept = _hits(gql, namespace, "Where did Melanie go camping in May?", during=during, window="FILTER")
    assert set(kept) == {july}
    open_ended = _hits(gql, namespace, "camping", during={"end": "2023-06-01T00:00:00Z"}, window="FILTER")
    assert set(open_ended) == {may}


def test_a_question_without_time_words_is_ranked_as_without_a_window(
    gql: GraphQLClient, module_namespace: str, outings: list[str]
) -> None:
    namespace = module_namespace
    question = "Where did Melanie go camping?"
    boosted = _hits(gql, namespace, question, referenceTime=ASKED_AT, window="BOOST")
    off = _hits(gql, namespace, question, referenceTime=ASKED_AT, window="OFF")
    assert len(boosted) == 3
    # Scores move with the clock (retention); the order and the factors do not.
    assert list(boosted) == list(off)
    assert {hit["explanation"]["windowFactor"] for hit in boosted.values()} == {1}


def test_a_window_that_ends_before_it_starts_is_refused(gql: GraphQLClient, namespace: str) -> None:
    capture_turns(gql, namespace, TURNS[:1], session="s1")
    during = {"start": "2023-07-01T00:00:00Z", "end": "2023-06-01T00:00:00Z"}
    body = gql.operation("recall", input={"namespace": namespace, "query": "camping", "during": during})
    [error] = body["errors"]
    assert error["extensions"]["code"] == "BAD_INPUT" and error["extensions"]["field"] == "during", error
