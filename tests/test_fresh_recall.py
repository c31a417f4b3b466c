"""A memory is as findable the moment capture answers as after consolidation: capture writes what
the text channels search (stems, embedding, and the context vector from the turns before it), so
a fixed question ranks a fresh turn where it ranks it once consolidation has run."""

from __future__ import annotations

import pytest
from support.client import GraphQLClient
from support.operations import capture_turns, consolidate_over_api, recall_over_api

from hippograph.runtime import Runtime

# Bob's answer says nothing of the lighthouse: only Alice's question before it does, so only the
# context channel finds it. The job turns are there to be ranked below it.
FIRST = [
    ("Alice", "Alice: My new job starts on Monday, I am nervous.", "2023-05-01T08:58:00Z"),
    ("Alice", "Alice: Did you ever visit the old lighthouse on the rocky coast near Brest?", "2023-05-01T09:00:00Z"),
]
LATER = [
    ("Bob", "Bob: Yes! We went there last summer with the kids and loved every minute.", "2023-05-01T09:01:00Z"),
    ("Bob", "Bob: You will do great at the new job, the team sounds friendly.", "2023-05-01T09:03:00Z"),
]
QUESTION = "Who has been to the lighthouse on the coast?"
TEXT_CHANNELS = ["KEYWORD", "VECTOR", "CONTEXT"]


@pytest.fixture(autouse=True, scope="module")
def _models_loaded(runtime: Runtime) -> None:
    # Loading spaCy and MiniLM on a busy machine can outlast a request's timeout: not what is tested.
    runtime.warm_up()


def _ranking(gql: GraphQLClient, namespace: str) -> list[str]:
    hits = recall_over_api(gql, namespace, QUESTION, channels=TEXT_CHANNELS, limit=10, countAccess=False)["hits"]
    return [hit["memory"]["id"] for hit in hits if hit["memory"]["__typename"] == "Episode"]


def test_a_fresh_turn_ranks_as_it_will_after_consolidation(gql: GraphQLClient, namespace: str) -> None:
    # The turns before it were captured (and consolidated) earlier; the answer comes in its own
    # capture, continuing the session, and is asked about at once.
    capture_turns(gql, namespace, FIRST, session="s1")
    consolidate_over_api(gql, namespace)
    answer, _ = capture_turns(gql, namespace, LATER, session="s1")

    fresh = _ranking(gql, namespace)
    report = consolidate_over_api(gql, namespace)
    assert report["processed"] == len(LATER) and report["remaining"] == 0
    consolidated = _ranking(gql, namespace)

    assert answer in fresh
    assert fresh == consolidated
    by_channel = recall_over_api(gql, namespace, QUESTION, channels=["CONTEXT"], limit=3, countAccess=False)["hits"]
    assert answer in [hit["memory"]["id"] for hit in by_channel]


def test_a_batch_captured_at_once_has_its_context_at_once(gql: GraphQLClient, namespace: str, runtime: Runtime) -> None:
    # The whole conversation in one capture: each turn's context comes from the turns before it
    # in the same batch.
    turns = capture_turns(gql, namespace, FIRST + LATER, session="s1")
    answer = turns[2]
    fresh = _ranking(gql, namespace)
    assert answer in fresh
    consolidate_over_api(gql, namespace)
    assert _ranking(gql, namespace) == fresh
    [row] = runtime.store.read("context_sources", ids=[answer])
    assert row["previous1"] is not None and row["previous2"] is not None
