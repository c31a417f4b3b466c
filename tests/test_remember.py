"""Explicit facts: remember for every kind, supersession by key or subject, and History."""

from __future__ import annotations

from typing import Any

import pytest
from support.client import GraphQLClient
from support.operations import fact, history, remember

from hippograph.kernel.retention import POLICIES, Supersession

KINDS = [kind for kind in POLICIES if kind != "episode"]


@pytest.mark.parametrize("kind", KINDS)
def test_remember_stores_every_kind_and_supersedes_by_its_policy(gql: GraphQLClient, namespace: str, kind: str) -> None:
    rule = POLICIES[kind].supersedes_by
    first = remember(gql, namespace, f"The first {kind}.", kind=kind.upper(), key="k1", subject="project x")
    assert first["status"] == "CREATED" and first["warnings"] == [] and first["superseded"] == []
    stored = first["fact"]
    assert (stored["kind"], stored["origin"], stored["status"], stored["version"]) == (kind, "explicit", "active", 1)
    assert stored["lifecycle"] == "ACTIVE" and stored["retention"] == pytest.approx(1.0)

    second = remember(gql, namespace, f"The second {kind}.", kind=kind.upper(), key="k1", subject="project x")
    old = fact(gql, namespace, stored["id"])
    if rule is Supersession.NEVER:
        assert second["superseded"] == [] and old["status"] == "active" and old["validTo"] is None
        return
    assert second["superseded"] == [stored["id"]]
    assert old["status"] == "superseded" and old["validTo"] == second["fact"]["validFrom"]
    assert [e["event"] for e in history(gql, namespace, stored["id"])] == ["created", "superseded"]
    assert history(gql, namespace, stored["id"])[1]["metadata"] == {"by": second["fact"]["id"]}
    timeline = gql.execute(
        "query($id: ID!, $ns: String) { memory(id: $id, namespace: $ns) { ... on Fact { status } } }",
        id=second["fact"]["id"],
        ns=namespace,
    )
    assert timeline["data"]["memory"]["status"] == "active"


def test_status_supersedes_by_subject_not_key(gql: GraphQLClient, namespace: str) -> None:
    first = remember(gql, namespace, "The build is red.", kind="STATUS", subject="build")
    other = remember(gql, namespace, "The deploy is paused.", kind="STATUS", subject="deploy")
    second = remember(gql, namespace, "The build is green.", kind="STATUS", subject="build")
    assert second["superseded"] == [first["fact"]["id"]]
    assert fact(gql, namespace, other["fact"]["id"])["status"] == "active"
    code = gql.error_code("remember", input={"namespace": namespace, "statement": "All good.", "kind": "STATUS"})
    assert code == "BAD_INPUT"


def test_a_keyless_fact_is_stored_with_a_warning_and_never_superseded(gql: GraphQLClient, namespace: str) -> None:
    first = remember(gql, namespace, "Dana likes tea.", kind="PREFERENCE")
    assert first["status"] == "CREATED" and "never" in first["warnings"][0]
    second = remember(gql, namespace, "Dana likes coffee.", kind="PREFERENCE")
    assert second["superseded"] == []
    assert fact(gql, namespace, first["fact"]["id"])["status"] == "active"


def test_remembering_the_same_fact_twice_stores_it_once(gql: GraphQLClient, namespace: str) -> None:
    first = remember(gql, namespace, "Dana's editor is Helix.", key="dana.editor")
    again = remember(gql, namespace, "dana's editor is helix", key="dana.editor")
    assert again["status"] == "DUPLICATE" and again["fact"]["id"] == first["fact"]["id"]
    assert again["superseded"] == []


def test_a_remembered_statement_is_sanitized_and_scrubbed(gql: GraphQLClient, namespace: str) -> None:
    result = remember(gql, namespace, "The staging password=hunter2secret is rotated monthly.", kind="PROCEDURE")
    assert "hunter2secret" not in result["fact"]["statement"]
    assert result["redactions"]
    entry = history(gql, namespace, result["fact"]["id"])[0]
    assert entry["event"] == "created" and entry["newContent"] == result["fact"]["statement"]


@pytest.mark.parametrize(
    "fields",
    [
        {"statement": "   "},
        {"statement": "x", "confidence": 1.5},
        {"statement": "x", "importance": -1},
        {"statement": "x", "key": ""},
        {"statement": "x", "validFrom": "2999-01-01T00:00:00Z"},
        {"statement": "x", "namespace": "bad namespace!"},
    ],
)
def test_bad_input_is_refused_and_writes_nothing(gql: GraphQLClient, namespace: str, fields: dict[str, Any]) -> None:
    assert gql.error_code("remember", input={"namespace": namespace, **fields}) == "BAD_INPUT"
    assert gql.data("memories", namespace=namespace, first=10)["memories"]["edges"] == []
