"""Correcting facts: new versions, ifVersion, immutable episodes, and the mirrored edge."""

from __future__ import annotations

from typing import Any

from support.client import GraphQLClient
from support.operations import consolidate_over_api, fact, facts_of, history, remember


def modify(gql: GraphQLClient, namespace: str, fact_id: str, **fields: Any) -> dict[str, Any]:
    return gql.data("modify", input={"namespace": namespace, "id": fact_id, **fields})["modify"]


def modify_error(gql: GraphQLClient, namespace: str, fact_id: str, **fields: Any) -> str:
    return gql.error_code("modify", input={"namespace": namespace, "id": fact_id, **fields})


def test_modify_writes_a_new_version_and_closes_the_old_ones_transaction_time(
    gql: GraphQLClient, namespace: str
) -> None:
    original = remember(gql, namespace, "The office opens at 9.", kind="PROCEDURE", key="office.hours")["fact"]
    changed = modify(
        gql, namespace, original["id"], statement="The office opens at 8.", reason="new hours", ifVersion=1
    )
    assert changed["id"] != original["id"]
    assert (changed["version"], changed["status"], changed["statement"]) == (2, "active", "The office opens at 8.")
    assert (changed["key"], changed["kind"], changed["validFrom"]) == (
        "office.hours",
        "procedure",
        original["validFrom"],
    )

    old = fact(gql, namespace, original["id"])
    assert old["status"] == "superseded" and old["expiredAt"] is not None and old["validTo"] is None

    [entry] = history(gql, namespace, changed["id"])
    assert entry["event"] == "modified" and entry["reason"] == "new hours"
    assert (entry["oldContent"], entry["newContent"]) == ("The office opens at 9.", "The office opens at 8.")
    assert entry["metadata"]["previous"] == original["id"]

    # The key still supersedes through the new version.
    later = remember(gql, namespace, "The office opens at 7.", kind="PROCEDURE", key="office.hours")
    assert later["superseded"] == [changed["id"]]


def test_if_version_and_superseded_versions_conflict(gql: GraphQLClient, namespace: str) -> None:
    original = remember(gql, namespace, "Deploys happen on Tuesdays.", key="deploy.day")["fact"]
    assert modify_error(gql, namespace, original["id"], importance=0.9, reason="r", ifVersion=3) == "VERSION_CONFLICT"
    second = modify(gql, namespace, original["id"], importance=0.9, reason="more important")
    assert second["importance"] == 0.9 and second["statement"] == original["statement"]
    assert modify_error(gql, namespace, original["id"], importance=0.1, reason="stale") == "VERSION_CONFLICT"
    assert len(facts_of(gql, namespace)) == 2  # nothing written by the refused calls


def test_modify_needs_a_reason_a_change_and_a_fact(gql: GraphQLClient, namespace: str) -> None:
    original = remember(gql, namespace, "Standup is at 10.", key="standup")["fact"]
    assert modify_error(gql, namespace, original["id"], statement="Standup is at 11.", reason="  ") == "BAD_INPUT"
    assert modify_error(gql, namespace, original["id"], reason="nothing") == "BAD_INPUT"
    assert modify_error(gql, namespace, original["id"], importance=2.0, reason="x") == "BAD_INPUT"
    assert modify_error(gql, namespace, "01NOPE", importance=0.2, reason="x") == "NOT_FOUND"
    captured = gql.data("capture", input={"namespace": namespace, "content": "Standup moved to 11."})["capture"]
    assert modify_error(gql, namespace, captured["id"], statement="Standup at noon.", reason="x") == "EPISODE_IMMUTABLE"
    assert len(facts_of(gql, namespace)) == 1


def test_correcting_a_derived_fact_keeps_provenance_and_expires_its_edge(gql: GraphQLClient, namespace: str) -> None:
    gql.data("capture", input={"namespace": namespace, "content": "Dana: I work at Initech.", "agent": "Dana"})
    consolidate_over_api(gql, namespace)
    [derived] = [f for f in facts_of(gql, namespace) if "Initech" in f["statement"]]
    before = gql.execute(
        "query($id: ID!, $ns: String) { memory(id: $id, namespace: $ns) { ... on Fact { supportedBy { id } } } }",
        id=derived["id"],
        ns=namespace,
    )["data"]["memory"]["supportedBy"]
    dana = [
        e["node"]["id"] for e in gql.data("entities", namespace=namespace, search="Dana", first=5)["entities"]["edges"]
    ]

    def works_at() -> list[dict[str, Any]]:
        edges = gql.data("neighborhood", namespace=namespace, entityId=dana[0], depth=1)["neighborhood"]["edges"]
        return [e for e in edges if e["type"] == "WORKS_AT"]

    assert [e["fact"] for e in works_at()] == [derived["id"]]
    changed = modify(gql, namespace, derived["id"], statement="Dana works at Initrode.", reason="misheard")
    assert changed["origin"] == "extracted" and changed["version"] == 2
    after = gql.execute(
        "query($id: ID!, $ns: String) { memory(id: $id, namespace: $ns) { ... on Fact { supportedBy { id } } } }",
        id=changed["id"],
        ns=namespace,
    )["data"]["memory"]["supportedBy"]
    assert after == before and after
    assert works_at() == []  # no longer believed
