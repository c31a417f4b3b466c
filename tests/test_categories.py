"""Knowledge categories: assigned at consolidation from extract/categories.toml, only ever refined
from general, and a recall filter, on the real store over GraphQL."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from support.client import GraphQLClient
from support.operations import capture_turns, recall_over_api
from support.statements import run_test_statement

from hippograph.consolidation.worker import consolidate, requeue
from hippograph.runtime import Runtime

AT = "2024-03-0{}T10:00:00Z"
TURNS = [
    ("Ana", "The checkout service crashes when the Postgres connection pool runs out.", AT.format(1)),
    ("Ana", "Our weekly standup moved to Thursday at nine, and the agenda is in the invite.", AT.format(2)),
    ("Ana", "My sister Lucia is married to Pedro, and their daughter is my goddaughter.", AT.format(3)),
    ("Ana", "Thanks, sounds good!", AT.format(4)),
]


def _memories(gql: GraphQLClient, namespace: str) -> dict[str, dict]:
    edges = gql.data("memories", namespace=namespace, first=50)["memories"]["edges"]
    return {edge["node"]["id"]: edge["node"] for edge in edges}


@dataclass(frozen=True)
class Consolidated:
    """TURNS captured and consolidated once for the tests that only read them."""

    namespace: str
    ids: list[str]
    before: dict[str, dict]  # the memories as listed between capture and consolidation


@pytest.fixture(scope="module")
def consolidated(gql: GraphQLClient, runtime: Runtime, module_namespace: str) -> Consolidated:
    ids = capture_turns(gql, module_namespace, TURNS, session="s1")
    before = _memories(gql, module_namespace)
    assert consolidate(runtime, namespace=module_namespace).processed == len(TURNS)
    return Consolidated(module_namespace, ids, before)


def test_consolidation_gives_each_memory_a_category_and_its_facts_follow(
    gql: GraphQLClient, consolidated: Consolidated
) -> None:
    namespace, ids = consolidated.namespace, consolidated.ids
    assert {consolidated.before[i]["category"] for i in ids} == {None}  # not before consolidation
    memories = _memories(gql, namespace)
    assert [memories[i]["category"] for i in ids] == ["technical", "meeting", "relationship", "general"]
    facts = [m for m in memories.values() if m["__typename"] == "Fact"]
    assert facts and all(m["category"] is not None for m in facts)
    for fact in facts:
        supporters = gql.execute(
            "query($id: ID!, $ns: String) { memory(id: $id, namespace: $ns) { ... on Fact { supportedBy { id } } } }",
            id=fact["id"],
            ns=namespace,
        )["data"]["memory"]["supportedBy"]
        assert fact["category"] in {memories[s["id"]]["category"] for s in supporters}


def test_recall_filters_by_category(gql: GraphQLClient, consolidated: Consolidated) -> None:
    namespace, ids = consolidated.namespace, consolidated.ids
    everything = recall_over_api(gql, namespace, "Thursday standup crash Lucia", limit=20, countAccess=False)
    assert {hit["memory"]["id"] for hit in everything["hits"]} >= set(ids[:3])
    meetings = recall_over_api(
        gql, namespace, "Thursday standup crash Lucia", limit=20, countAccess=False, filters={"categories": ["meeting"]}
    )
    assert ids[1] in {hit["memory"]["id"] for hit in meetings["hits"]}
    assert {hit["memory"]["category"] for hit in meetings["hits"]} == {"meeting"}
    two = recall_over_api(
        gql,
        namespace,
        "Thursday standup crash Lucia",
        limit=20,
        countAccess=False,
        filters={"categories": ["technical", "relationship"]},
    )
    assert {hit["memory"]["category"] for hit in two["hits"]} == {"technical", "relationship"}
    code = gql.error_code(
        "recall", input={"namespace": namespace, "query": "standup", "filters": {"categories": ["gossip"]}}
    )
    assert code == "BAD_INPUT"


def test_a_category_is_refined_from_general_and_never_changed_back_or_sideways(
    gql: GraphQLClient, runtime: Runtime, namespace: str
) -> None:
    ids = capture_turns(gql, namespace, TURNS, session="s1")
    consolidate(runtime, namespace=namespace)
    technical, meeting, relationship, small_talk = ids
    # As an earlier consolidation (older rules, a pending embedding) may have left them.
    for memory_id, category in ((technical, "general"), (meeting, "strategy")):
        run_test_statement(
            runtime.settings, "set_episode_category", id=memory_id, namespace=namespace, category=category
        )
    assert requeue(runtime.store, namespace) == len(TURNS)
    consolidate(runtime, namespace=namespace)
    memories = _memories(gql, namespace)
    assert memories[technical]["category"] == "technical"  # general refined
    assert memories[meeting]["category"] == "strategy"  # a specific category is kept
    assert memories[relationship]["category"] == "relationship"
    assert memories[small_talk]["category"] == "general"
