"""Context vectors (embedding/context.py) and the context channel that searches them: a turn
that means something only with the turn before it is found through that turn's words; erasing
the turn before takes it out of the context channel; the setting turns the channel off."""

from __future__ import annotations

import math
import threading
from dataclasses import replace

import pytest
from support.asgi import InProcess
from support.client import GraphQLClient
from support.operations import capture_turns, consolidate_over_api, consolidated_turns, erase, recall_over_api
from support.statements import run_test_statement
from support.threads import run_side_by_side

from hippograph.api.queries import recall_parts
from hippograph.capture.batch import context_vectors
from hippograph.embedding.context import context_vector
from hippograph.recall.request import Channel, RecallRequest
from hippograph.recall.service import recall
from hippograph.runtime import Runtime
from hippograph.store.rows import CONTEXT_SOURCES

# Bob's answer says nothing of the lighthouse; only Alice's question before it does.
TURNS = [
    ("Alice", "Alice: Did you ever visit the old lighthouse on the rocky coast near Brest?", "2023-05-01T09:00:00Z"),
    ("Bob", "Bob: Yes! We went there last summer with the kids and loved every minute.", "2023-05-01T09:01:00Z"),
    ("Alice", "Alice: My new job starts on Monday, I am nervous.", "2023-05-01T09:02:00Z"),
    ("Bob", "Bob: You will do great, the team sounds friendly.", "2023-05-01T09:03:00Z"),
]
AT = "2023-05-01T09:05:00Z"
WRITERS = 6
BATCHES = 4
WORDS = ["harbour", "orchard", "violin"]
QUESTION = "Who has been to the lighthouse on the coast?"


def context_ids(gql: GraphQLClient, namespace: str, query: str = QUESTION) -> list[str]:
    hits = recall_over_api(gql, namespace, query, channels=["CONTEXT"], limit=4, countAccess=False)["hits"]
    for hit in hits:
        assert [score["channel"] for score in hit["channels"]] == ["CONTEXT"]
    return [hit["memory"]["id"] for hit in hits]


@pytest.fixture(scope="module")
def conversation(gql: GraphQLClient, module_namespace: str) -> list[str]:
    """TURNS captured and consolidated once for the tests that only read them (recalls that count
    no access); their ids."""
    return consolidated_turns(gql, module_namespace, TURNS, "s1")


def test_the_context_channel_finds_a_turn_through_the_turn_before_it(
    gql: GraphQLClient, module_namespace: str, conversation: list[str]
) -> None:
    namespace = module_namespace
    question, answer, job, _ = conversation
    by_context = context_ids(gql, namespace)
    assert by_context[:2] == [question, answer]
    assert by_context.index(answer) < by_context.index(job)
    # The answer's own words are too far from the question for the vector channel to find it.
    own = recall_over_api(gql, namespace, QUESTION, channels=["VECTOR"], limit=10, countAccess=False)["hits"]
    assert question in [hit["memory"]["id"] for hit in own]
    assert answer not in [hit["memory"]["id"] for hit in own]
    # Every channel by default: the answer is among the hits, found by the context channel too.
    hits = recall_over_api(gql, namespace, QUESTION, limit=4, countAccess=False)["hits"]
    found = {hit["memory"]["id"]: {score["channel"] for score in hit["channels"]} for hit in hits}
    assert "CONTEXT" in found[answer]


def test_erasing_a_turn_takes_the_context_it_gave_with_it(gql: GraphQLClient, namespace: str) -> None:
    question, answer, job, thanks = capture_turns(gql, namespace, TURNS, session="s1")
    consolidate_over_api(gql, namespace)
    job_question = "Whose new job starts on Monday?"
    assert answer in context_ids(gql, namespace)
    assert {job, thanks} <= set(context_ids(gql, namespace, job_question))
    erase(gql, namespace, question)
    # The two turns after the erased one lose their context vectors; the one after them keeps its own.
    assert thanks in context_ids(gql, namespace, job_question)
    assert not {question, answer, job} & set(context_ids(gql, namespace, job_question) + context_ids(gql, namespace))


def test_the_setting_turns_the_context_channel_off(
    runtime: Runtime, module_namespace: str, conversation: list[str]
) -> None:
    _, answer, _, _ = conversation
    request = RecallRequest(QUESTION, module_namespace, 4, channels=frozenset({Channel.CONTEXT}), count_access=False)
    parts = recall_parts(runtime)
    assert answer in [hit.memory.id for hit in recall(parts, request).hits]
    off = replace(parts, settings=replace(parts.settings, context_channel=False))
    assert recall(off, request).hits == []


def test_a_context_vector_is_the_unit_sum_of_the_turns_it_has() -> None:
    vector = context_vector([1.0, 0.0], [[0.0, 1.0], None])
    assert vector == [1 / math.sqrt(2), 1 / math.sqrt(2)]
    assert context_vector([0.6, 0.8], []) == [0.6, 0.8]


def test_capture_gives_each_turn_the_context_the_next_chain_gives_it(
    gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    # Two batches into one session, so that the second's turns take their context from the first's
    # stored last two; then consolidation's way, from the NEXT chain in the store, for comparison.
    first = capture_turns(gql, namespace, TURNS[:3], session="s1")
    second = capture_turns(gql, namespace, TURNS[3:], session="s1")
    [alone] = capture_turns(
        gql, namespace, [("Cid", "Cid: The ferry to the islands was late again.", AT)], session="s2"
    )
    ids = [*first, *second, alone]
    stored = _assert_contexts_follow_the_chain(runtime, ids)
    assert len(second) >= 1
    # A turn that opens a session is its own context; a later one is not.
    assert stored[first[0]] != stored[first[1]]


def test_captures_into_one_session_at_once_chain_it_and_take_their_context_from_it(
    app: InProcess, admin_secret: str, namespace: str, runtime: Runtime
) -> None:
    # Writers of one session at the same moment: on Neo4j each takes the session's lock before it
    # reads the session's last turns, so the second reads what the first committed. One chain of
    # every turn results, and every context vector is the one that chain gives.
    start = threading.Barrier(WRITERS)
    acknowledged: list[str] = []
    lock = threading.Lock()

    def writer(number: int) -> None:
        own = app.graphql(admin_secret)
        start.wait()
        for batch in range(BATCHES):
            turns = [(f"W{number}", f"W{number}: batch {batch}, turn {k}, about the {WORDS[k]}.", AT) for k in range(3)]
            ids = capture_turns(own, namespace, turns, session="shared")
            with lock:
                acknowledged.extend(ids)

    run_side_by_side(WRITERS, writer)

    assert len(set(acknowledged)) == WRITERS * BATCHES * 3
    links = {
        row["id"]: row["before"]
        for row in run_test_statement(runtime.settings, "session_links", namespace=namespace, session="shared")
    }
    assert set(links) == set(acknowledged)
    assert all(len(before) <= 1 for before in links.values()), "a turn with two predecessors: the chain forked"
    assert len([episode for episode, before in links.items() if not before]) == 1, "not one chain"
    _assert_contexts_follow_the_chain(runtime, acknowledged)


def _assert_contexts_follow_the_chain(runtime: Runtime, ids: list[str]) -> dict[str, list[float]]:
    """Each episode's stored context vector is the one consolidation computes from the NEXT chain;
    the stored ones, by id."""
    stored = {row["id"]: row["context"] for row in run_test_statement(runtime.settings, "context_embeddings", ids=ids)}
    chained = {
        row["id"]: context_vector(row["embedding"], [row["previous1"], row["previous2"]])
        for row in runtime.store.read(CONTEXT_SOURCES, ids=ids)
    }
    assert set(stored) == set(chained) == set(ids)
    for episode_id in ids:
        assert stored[episode_id] is not None
        assert math.fsum(a * b for a, b in zip(stored[episode_id], chained[episode_id], strict=True)) > 0.99999
    return stored


def test_context_vectors_follow_each_sessions_chain_from_its_stored_tail() -> None:
    a, b, c = [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]
    episodes = [{"id": "e1", "embedding": a}, {"id": "e2"}, {"id": "e3", "embedding": c}, {"id": "e4", "embedding": b}]
    sessions = {("ns", "s1"): ["e1", "e2", "e3"]}
    tails = {("ns", "s1"): ([0.0, 1.0, 0.0], None)}
    two = context_vectors(episodes, sessions, tails, 2)
    # e1 after the stored tail; e2 has no embedding, so no context, and is left out of e3's.
    assert two["e1"] == [1 / math.sqrt(2), 1 / math.sqrt(2), 0.0]
    assert "e2" not in two
    assert two["e3"] == [1 / math.sqrt(2), 0.0, 1 / math.sqrt(2)]
    assert two["e4"] == b  # no session: its own
    one = context_vectors(episodes, sessions, tails, 1)
    assert one["e3"] == c and one["e1"] == [1 / math.sqrt(2), 1 / math.sqrt(2), 0.0]
    assert context_vectors(episodes, sessions, tails, 0) == {}
    assert context_vectors(episodes, sessions, {}, 2)["e1"] == a
