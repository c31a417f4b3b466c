"""Erasure: the cascade of docs/memory-management.md (erase) leaves no orphan and no content, only History tombstones."""

from __future__ import annotations

from support.census import census, relationship_census
from support.client import GraphQLClient
from support.operations import (
    TURNS,
    assert_tombstones_only,
    capture_turns,
    consolidate_over_api,
    entity_id,
    erase,
    facts_of,
    history,
    remember,
)

from hippograph.runtime import Runtime


def orphans(runtime: Runtime, namespace: str) -> dict[str, int]:
    return runtime.store.read("orphans", namespace=namespace)[0]


def session_chain(runtime: Runtime, namespace: str, session: str) -> list[str]:
    return [row["id"] for row in runtime.store.read("session_chain", namespace=namespace, session=session)]


def test_erasing_an_episode_cascades_and_leaves_no_orphan(gql: GraphQLClient, namespace: str, runtime: Runtime) -> None:
    episodes = capture_turns(gql, namespace, TURNS, session="s1")
    consolidate_over_api(gql, namespace)
    google = entity_id(gql, namespace, "Google", "organization")
    melanie = entity_id(gql, namespace, "Melanie", "person")
    google_facts = [f["id"] for f in facts_of(gql, namespace) if "Google" in f["statement"]]
    assert google_facts and orphans(runtime, namespace) == {"entities": 0, "facts": 0, "edges": 0, "cooccurrences": 0}
    assert relationship_census(runtime, namespace).get("WORKS_AT") == 1

    erased = erase(gql, namespace, episodes[1])
    assert erased["id"] == episodes[1] and sorted(erased["facts"]) == sorted(google_facts)
    assert google in erased["entities"] and melanie not in erased["entities"]

    assert orphans(runtime, namespace) == {"entities": 0, "facts": 0, "edges": 0, "cooccurrences": 0}
    assert "WORKS_AT" not in relationship_census(runtime, namespace)
    assert gql.error_code("memory", namespace=namespace, id=episodes[1]) == "NOT_FOUND"
    assert all("Google" not in f["statement"] for f in facts_of(gql, namespace))
    names = [e["node"]["name"] for e in gql.data("entities", namespace=namespace, first=50)["entities"]["edges"]]
    assert "Google" not in names and "Melanie" in names
    mentions = gql.execute(
        "query($id: ID!, $ns: String) { entity(id: $id, namespace: $ns) { mentionCount } }", id=melanie, ns=namespace
    )["data"]["entity"]["mentionCount"]
    assert mentions == 1
    assert session_chain(runtime, namespace, "s1") == [episodes[0], episodes[2]]

    assert_tombstones_only(gql, namespace, episodes[1])
    for target in erased["facts"] + erased["entities"]:
        assert_tombstones_only(gql, namespace, target)
    [erasure] = [e for e in history(gql, namespace, episodes[1]) if e["event"] == "erased"]
    assert erasure["reason"] == "user request"


def test_erasing_the_last_episode_of_a_session_erases_the_session(
    gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    [only] = capture_turns(gql, namespace, TURNS[:1], session="lonely")
    consolidate_over_api(gql, namespace)
    erase(gql, namespace, only)
    left = census(runtime, namespace)
    assert set(left) == {"History"}, left  # episode, session, entities and facts all gone
    assert relationship_census(runtime, namespace) == {}


def test_erasing_a_fact_removes_its_edge_and_keeps_the_episodes(
    gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    episodes = capture_turns(gql, namespace, TURNS[1:2], session="s1")
    consolidate_over_api(gql, namespace)
    [works] = [f["id"] for f in facts_of(gql, namespace) if "Google" in f["statement"]]
    erased = erase(gql, namespace, works)
    assert erased == {"id": works, "facts": [], "entities": []}
    assert "WORKS_AT" not in relationship_census(runtime, namespace)
    assert gql.data("memory", namespace=namespace, id=episodes[0])["memory"]["id"] == episodes[0]
    assert orphans(runtime, namespace) == {"entities": 0, "facts": 0, "edges": 0, "cooccurrences": 0}


def test_erasing_a_remembered_fact_scrubs_its_history(gql: GraphQLClient, namespace: str) -> None:
    first = remember(gql, namespace, "Dana's PIN hint is her cat's name.", key="dana.pin")["fact"]
    second = remember(gql, namespace, "Dana's PIN hint is her first car.", key="dana.pin")["fact"]
    erase(gql, namespace, second["id"])
    assert_tombstones_only(gql, namespace, second["id"])
    assert gql.error_code("memory", namespace=namespace, id=second["id"]) == "NOT_FOUND"
    # The older version is another memory: it stays, and says nothing of the erased one.
    assert [f["id"] for f in facts_of(gql, namespace)] == [first["id"]]


def test_erase_needs_a_reason_and_an_existing_memory(gql: GraphQLClient, namespace: str) -> None:
    kept = remember(gql, namespace, "Keep me.", key="k")["fact"]
    assert gql.error_code("erase", namespace=namespace, id=kept["id"], reason=" ") == "BAD_INPUT"
    assert gql.error_code("erase", namespace=namespace, id="01NOPE", reason="x") == "NOT_FOUND"
    assert gql.error_code("erase", namespace=namespace + "-x", id=kept["id"], reason="x") == "NOT_FOUND"
    assert [f["id"] for f in facts_of(gql, namespace)] == [kept["id"]]
