"""Entity types that hold: organisation designators, argument-type constraints of relation rules
and the type vote across an entity's mentions, through extraction and through consolidation on
the real store."""

from __future__ import annotations

from conftest import GraphQLClient, capture_turns

from hippograph.consolidation.worker import consolidate
from hippograph.runtime import Runtime


def entity_named(gql: GraphQLClient, namespace: str, name: str) -> dict:
    edges = gql.data("entities", namespace=namespace, search=name, first=10)["entities"]["edges"]
    matches = [edge["node"] for edge in edges if edge["node"]["name"] == name]
    assert len(matches) == 1, f"want one entity named {name}: {edges}"
    return matches[0]


def test_a_new_employer_with_a_designator_becomes_the_current_works_at(
    gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    turns = [
        ("notes", "Alice Johnson works at Acme Corp.", "2022-02-01T10:00:00Z"),
        ("notes", "Alice Johnson left Acme Corp and now works at Globex Corporation.", "2023-09-01T10:00:00Z"),
    ]
    capture_turns(gql, namespace, turns, session="s1")
    assert consolidate(runtime, namespace=namespace).processed == 2

    alice = entity_named(gql, namespace, "Alice Johnson")
    globex = entity_named(gql, namespace, "Globex Corporation")
    assert globex["type"] == "organization"
    edges = gql.data("neighborhood", namespace=namespace, entityId=alice["id"], depth=1)["neighborhood"]["edges"]
    current = [edge for edge in edges if edge["type"] == "WORKS_AT"]
    assert [(edge["target"], edge["validTo"]) for edge in current] == [(globex["id"], None)]
    then = gql.data("neighborhood", namespace=namespace, entityId=alice["id"], depth=1,
                    asOf="2022-06-01T00:00:00Z")["neighborhood"]["edges"]
    acme = entity_named(gql, namespace, "Acme Corp")
    assert [(e["target"], e["validTo"]) for e in then if e["type"] == "WORKS_AT"] == [
        (acme["id"], "2023-09-01T10:00:00Z")
    ]
