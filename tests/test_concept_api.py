"""Concepts over the GraphQL API (api/concepts.py): a namespace's concepts, what a memory is about,
and the memories that meet at a concept, over real HTTP and the real store."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from support.asgi import InProcess
from support.client import GraphQLClient
from support.operations import capture_turns, forget
from support.processes import eventually

from hippograph.access import KeyRole, create_key
from hippograph.consolidation.worker import consolidate
from hippograph.runtime import Runtime

TURNS = [
    ("Caroline", "Caroline: I signed up for a pottery class at the community center.", "2023-05-01T10:00:00Z"),
    ("Melanie", "Melanie: I love pottery classes.", "2023-05-08T10:00:00Z"),
    ("Caroline", "Caroline: The train to Bergen was late again.", "2023-05-09T10:00:00Z"),
]
FIRST = {"pottery class", "community center", "pottery", "class", "community", "center"}


def concepts(gql: GraphQLClient, namespace: str, **arguments: Any) -> dict[str, dict[str, Any]]:
    """Every concept of the namespace by name, read a page of two at a time."""
    out: dict[str, dict[str, Any]] = {}
    after = None
    while True:
        page = gql.data("concepts", namespace=namespace, first=2, after=after, **arguments)["concepts"]
        out |= {edge["node"]["name"]: edge["node"] for edge in page["edges"]}
        if not page["pageInfo"]["hasNextPage"]:
            return out
        after = page["pageInfo"]["endCursor"]


def meeting(gql: GraphQLClient, namespace: str, concept_id: str, **arguments: Any) -> list[dict[str, Any]]:
    page = gql.data("conceptMemories", namespace=namespace, conceptId=concept_id, first=100, **arguments)
    return [edge["node"] for edge in page["conceptMemories"]["edges"]]


def about(gql: GraphQLClient, namespace: str, memory_id: str) -> set[str]:
    return {c["name"] for c in gql.data("memoryConcepts", namespace=namespace, id=memory_id)["memory"]["concepts"]}


def tell(gql: GraphQLClient, runtime: Runtime, namespace: str) -> list[str]:
    """TURNS captured and consolidated in ``namespace``; their ids."""
    ids = capture_turns(gql, namespace, TURNS, session="s1")
    # In process rather than over the API: how it was consolidated is not what is tested here.
    assert consolidate(runtime, namespace=namespace).processed == len(TURNS)
    return ids


@pytest.fixture(scope="module")
def told(gql: GraphQLClient, runtime: Runtime, module_namespace: str) -> list[str]:
    """The story once for the tests that only read it."""
    return tell(gql, runtime, module_namespace)


@pytest.fixture
def story(gql: GraphQLClient, namespace: str, runtime: Runtime) -> list[str]:
    """The story in the test's own namespace, for a test that forgets part of it."""
    return tell(gql, runtime, namespace)


def test_a_memory_is_about_exactly_its_concepts_and_facts_too(
    gql: GraphQLClient, module_namespace: str, told: list[str]
) -> None:
    namespace, story = module_namespace, told
    assert about(gql, namespace, story[0]) == FIRST
    assert about(gql, namespace, story[1]) == {"pottery class", "pottery", "class"}
    assert about(gql, namespace, story[2]) == {"train"}
    found = concepts(gql, namespace)
    assert set(found) == FIRST | {"train"}
    pottery = found["pottery class"]
    memories = meeting(gql, namespace, pottery["id"])
    episodes = [m["id"] for m in memories if m["__typename"] == "Episode"]
    statements = [m["statement"] for m in memories if m["__typename"] == "Fact"]
    # Newest first; each fact says what its sentence said, and is about the concept itself.
    assert episodes == [story[1], story[0]]
    assert statements == [
        "Melanie loves pottery classes.",
        "Caroline signed up for a pottery class at the community center.",
    ]
    assert all("pottery class" in {c["name"] for c in m["concepts"]} for m in memories)
    assert pottery["episodeCount"] == 2 and pottery["memoryCount"] == 4
    assert set(concepts(gql, namespace, search="POTTERY")) == {"pottery class", "pottery"}
    assert concepts(gql, namespace, search="violin") == {}


def test_as_of_and_forgetting_decide_what_meets_at_a_concept(
    gql: GraphQLClient, namespace: str, story: list[str]
) -> None:
    pottery = concepts(gql, namespace)["pottery class"]["id"]
    # A week before Melanie's turn only Caroline's episode and fact had happened.
    before = meeting(gql, namespace, pottery, asOf="2023-05-02T00:00:00Z")
    assert {m.get("content", m.get("statement")) for m in before} == {
        TURNS[0][1],
        "Caroline signed up for a pottery class at the community center.",
    }
    assert meeting(gql, namespace, pottery, asOf="2023-04-01T00:00:00Z") == []
    # Known before anything was captured: nothing.
    assert meeting(gql, namespace, pottery, knownAt="2000-01-01T00:00:00Z") == []

    forget(gql, namespace, ids=[story[1]], mode="EXECUTE", reason="test")
    left = meeting(gql, namespace, pottery)
    assert story[1] not in {m["id"] for m in left} and story[0] in {m["id"] for m in left}
    assert concepts(gql, namespace)["pottery class"]["memoryCount"] == len(left)


def test_another_namespace_never_sees_these_concepts(
    gql: GraphQLClient, module_namespace: str, told: list[str], runtime: Runtime, app: InProcess
) -> None:
    # Its other namespace is its own: nothing it writes is in the one the module reads.
    namespace = module_namespace
    other = namespace + "-other"
    capture_turns(gql, other, TURNS[2:], session="s1")
    consolidate(runtime, namespace=other)
    mine = concepts(gql, namespace)
    theirs = concepts(gql, other)
    assert set(theirs) == {"train"}
    assert mine["train"]["id"] != theirs["train"]["id"]
    # This namespace's concept asked for under the other: not found there, and its memories neither.
    pottery = mine["pottery class"]["id"]
    assert gql.error_code("concept", namespace=other, id=pottery) == "NOT_FOUND"
    assert gql.error_code("conceptMemories", namespace=other, conceptId=pottery) == "NOT_FOUND"
    # A key bound to the other namespace may not read this one.
    secret = create_key(runtime.store, f"bound-{uuid.uuid4().hex[:8]}", KeyRole.READER, [other]).secret
    bound = app.graphql(secret)
    eventually(lambda: bound.http.post("/graphql", json={"query": "{ __typename }"}).status_code == 200)
    assert bound.error_code("concepts", namespace=namespace) == "FORBIDDEN"
    assert bound.error_code("conceptMemories", namespace=namespace, conceptId=pottery) == "FORBIDDEN"
    assert set(concepts(bound, other)) == {"train"}


def test_bad_pages_are_bad_input(gql: GraphQLClient, namespace: str) -> None:
    assert gql.error_code("concepts", namespace=namespace, first=0) == "BAD_INPUT"
    assert gql.error_code("concepts", namespace=namespace, after="not-a-cursor") == "BAD_INPUT"
