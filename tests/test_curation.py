"""Repairing the derived graph: user aliases and merging a split entity."""

from __future__ import annotations

from support.census import census, relationship_census
from support.client import GraphQLClient
from support.operations import consolidate_over_api, entity_id

from hippograph.runtime import Runtime


def capture(gql: GraphQLClient, namespace: str, *turns: tuple[str, str]) -> None:
    inputs = [{"namespace": namespace, "content": f"{agent}: {text}", "agent": agent} for agent, text in turns]
    gql.data("captureBatch", inputs=inputs)


def test_an_alias_resolves_later_mentions_in_its_namespace_only(gql: GraphQLClient, namespace: str) -> None:
    capture(gql, namespace, ("Dana", "I work at Acme Robotics now."))
    consolidate_over_api(gql, namespace)
    acme = entity_id(gql, namespace, "Acme Robotics", "organization")
    entity = gql.data("addAlias", namespace=namespace, entityId=acme, alias="the robot shop")["addAlias"]
    assert entity["aliases"] == ["the robot shop"]

    capture(gql, namespace, ("Omar", "I had lunch with the robot shop team today."))
    consolidate_over_api(gql, namespace)
    mentioned = gql.execute(
        "query($id: ID!, $ns: String) { entity(id: $id, namespace: $ns) { mentionCount } }", id=acme, ns=namespace
    )["data"]["entity"]["mentionCount"]
    assert mentioned == 2

    other = namespace + "-other"
    capture(gql, other, ("Omar", "I had lunch with the robot shop team today."))
    consolidate_over_api(gql, other)
    names = [e["node"]["name"] for e in gql.data("entities", namespace=other, first=20)["entities"]["edges"]]
    assert "Acme Robotics" not in names


def test_merging_a_split_moves_everything_and_keeps_a_tombstone(
    gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    capture(
        gql,
        namespace,
        ("Dana", "I work at Initech and I live in Lisbon."),
        ("Dana", "Bruno from Initech Labs called about the invoice."),
    )
    consolidate_over_api(gql, namespace)
    initech = entity_id(gql, namespace, "Initech", "organization")
    labs = entity_id(gql, namespace, "Initech Labs", None)  # the small model calls it a person
    edges_before = sum(relationship_census(runtime, namespace).values())

    merged = gql.data("mergeEntities", namespace=namespace, sourceId=labs, targetId=initech, reason="same company")[
        "mergeEntities"
    ]
    assert merged["id"] == initech and "Initech Labs" in merged["aliases"] and merged["mentionCount"] == 2

    tombstone = gql.execute(
        "query($id: ID!, $ns: String) { entity(id: $id, namespace: $ns) { mergedInto mentionCount } }",
        id=labs,
        ns=namespace,
    )["data"]["entity"]
    assert tombstone == {"mergedInto": initech, "mentionCount": 0}
    names = [e["node"]["name"] for e in gql.data("entities", namespace=namespace, first=50)["entities"]["edges"]]
    assert "Initech Labs" not in names
    assert sum(relationship_census(runtime, namespace).values()) <= edges_before + 1  # +1: the alias link
    assert census(runtime, namespace)["History"] >= 3  # two captures and the merge

    # A later mention of the old name resolves to the survivor.
    capture(gql, namespace, ("Dana", "Initech Labs sent the signed contract."))
    consolidate_over_api(gql, namespace)
    assert (
        gql.execute(
            "query($id: ID!, $ns: String) { entity(id: $id, namespace: $ns) { mentionCount } }",
            id=initech,
            ns=namespace,
        )["data"]["entity"]["mentionCount"]
        == 3
    )


def test_merge_needs_a_reason_and_two_entities(gql: GraphQLClient, namespace: str) -> None:
    capture(gql, namespace, ("Dana", "I work at Initech."))
    consolidate_over_api(gql, namespace)
    initech = entity_id(gql, namespace, "Initech", "organization")
    assert (
        gql.error_code("mergeEntities", namespace=namespace, sourceId=initech, targetId=initech, reason="x")
        == "BAD_INPUT"
    )
    assert (
        gql.error_code("mergeEntities", namespace=namespace, sourceId="nope", targetId=initech, reason="x")
        == "NOT_FOUND"
    )
