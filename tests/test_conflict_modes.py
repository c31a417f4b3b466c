"""Conflict modes over the real store and GraphQL endpoint (docs/memory-management.md, Conflict
modes): a namespace's mode for attributes ("Omar allowed the merge" against "Omar denied the merge")
and relations decides what consolidation believes; ASK holds both sides until resolveConflict settles them."""

from __future__ import annotations

import uuid

import pytest
from support.asgi import InProcess
from support.client import GraphQLClient, wait_until_known
from support.operations import consolidate_over_api, entity_id, fact, facts_of, history

from hippograph.access import KeyRole, create_key
from hippograph.runtime import Runtime

# Opposite polarities about one subject and predicate (allow/deny), equally confident.
ALLOWED = ("Dana Lee", "Dana Lee: Omar allowed the merge.", "2023-03-01T09:00:00Z")
DENIED = ("Dana Lee", "Dana Lee: Omar denied the merge.", "2023-06-01T09:00:00Z")  # said later


def set_mode(gql: GraphQLClient, namespace: str, kind: str, mode: str) -> dict:
    return gql.data("setConflictMode", namespace=namespace, kind=kind, mode=mode)["setConflictMode"]


def say(gql: GraphQLClient, namespace: str, *turns: tuple[str, str, str]) -> None:
    """Capture each turn and consolidate it before the next: the first is what is believed."""
    for agent, text, at in turns:
        gql.data("capture", input={"namespace": namespace, "content": text, "agent": agent, "occurredAt": at})
        assert consolidate_over_api(gql, namespace)["processed"] == 1


def merge_facts(gql: GraphQLClient, namespace: str) -> dict[str, str]:
    """The status of the fact each statement about the merge made, by its verb."""
    statuses: dict[str, str] = {}
    for node in facts_of(gql, namespace):
        for verb in ("allow", "deni"):
            if verb in node["statement"] and "merge" in node["statement"]:
                assert verb not in statuses, f"two {verb} facts: {facts_of(gql, namespace)}"
                statuses[verb] = fact(gql, namespace, node["id"])["status"]
    assert set(statuses) == {"allow", "deni"}, facts_of(gql, namespace)
    return statuses


def fact_ids(gql: GraphQLClient, namespace: str) -> dict[str, str]:
    return {
        verb: node["id"]
        for node in facts_of(gql, namespace)
        for verb in ("allow", "deni")
        if verb in node["statement"] and "merge" in node["statement"]
    }


def test_by_default_the_stronger_then_later_statement_is_believed(gql: GraphQLClient, namespace: str) -> None:
    modes = gql.data("conflictModes", namespace=namespace)["conflictModes"]
    assert modes == {"namespace": namespace, "attribute": "STRONGEST", "relation": "TEMPORAL"}
    say(gql, namespace, ALLOWED, DENIED)
    assert merge_facts(gql, namespace) == {"allow": "quarantined", "deni": "active"}
    assert gql.data("conflicts", namespace=namespace)["conflicts"] == []


@pytest.mark.parametrize(
    ("mode", "order", "expected"),
    [
        ("KEEP_EXISTING", (ALLOWED, DENIED), {"allow": "active", "deni": "superseded"}),
        # The later statement consolidated first: USE_NEW believes what arrived last, TEMPORAL what was said last.
        ("USE_NEW", (DENIED, ALLOWED), {"allow": "active", "deni": "superseded"}),
        ("TEMPORAL", (DENIED, ALLOWED), {"allow": "superseded", "deni": "active"}),
        ("MERGE", (ALLOWED, DENIED), {"allow": "active", "deni": "active"}),
    ],
)
def test_each_mode_decides_which_side_stays_current(
    gql: GraphQLClient, namespace: str, admin_name: str, mode: str, order: tuple, expected: dict[str, str]
) -> None:
    assert set_mode(gql, namespace, "ATTRIBUTE", mode) == {
        "namespace": namespace,
        "attribute": mode,
        "relation": "TEMPORAL",
    }
    say(gql, namespace, *order)
    assert merge_facts(gql, namespace) == expected
    assert gql.data("conflicts", namespace=namespace)["conflicts"] == []
    [event] = history(gql, namespace, namespace)
    assert (event["event"], event["actor"]) == ("conflict_mode_set", admin_name)
    assert event["metadata"] == {"kind": "attribute", "mode": mode.lower(), "previous": "strongest"}


def test_ask_quarantines_both_sides_until_a_mutation_resolves_the_conflict(
    gql: GraphQLClient, namespace: str, admin_name: str
) -> None:
    set_mode(gql, namespace, "ATTRIBUTE", "ASK")
    say(gql, namespace, ALLOWED, DENIED)
    assert merge_facts(gql, namespace) == {"allow": "quarantined", "deni": "quarantined"}
    ids = fact_ids(gql, namespace)
    [conflict] = gql.data("conflicts", namespace=namespace)["conflicts"]
    assert conflict["kind"] == "ATTRIBUTE" and conflict["namespace"] == namespace
    assert sorted(f["id"] for f in conflict["facts"]) == sorted(ids.values())
    assert {f["polarity"] for f in conflict["facts"]} == {"allow", "deny"}
    [opened] = history(gql, namespace, conflict["id"])
    assert (opened["event"], opened["actor"]) == ("conflict_opened", "consolidation")

    # The conflict is another namespace's to see and settle only by its own id, in its namespace.
    assert gql.data("conflicts", namespace=f"{namespace}-other")["conflicts"] == []
    other = gql.error_code("resolveConflict", namespace=f"{namespace}-other", id=conflict["id"], keep=[ids["allow"]])
    assert other == "NOT_FOUND"
    stranger = gql.error_code("resolveConflict", namespace=namespace, id=conflict["id"], keep=["not-in-it"])
    assert stranger == "BAD_INPUT"
    assert merge_facts(gql, namespace) == {"allow": "quarantined", "deni": "quarantined"}  # nothing was written

    resolved = gql.data(
        "resolveConflict", namespace=namespace, id=conflict["id"], keep=[ids["allow"]], reason="asked Omar"
    )["resolveConflict"]
    assert resolved["id"] == conflict["id"]
    assert merge_facts(gql, namespace) == {"allow": "active", "deni": "superseded"}
    assert gql.data("conflicts", namespace=namespace)["conflicts"] == []
    for verb, kept in (("allow", True), ("deni", False)):
        [event] = [e for e in history(gql, namespace, ids[verb]) if e["event"] == "conflict_resolved"]
        assert event["actor"] == admin_name and event["reason"] == "asked Omar"
        assert event["metadata"] == {"conflict": conflict["id"], "kept": kept}
    assert gql.error_code("resolveConflict", namespace=namespace, id=conflict["id"], keep=[]) == "NOT_FOUND"


def test_ask_resolved_keeping_none_supersedes_both(gql: GraphQLClient, namespace: str) -> None:
    set_mode(gql, namespace, "ATTRIBUTE", "ASK")
    say(gql, namespace, ALLOWED, DENIED)
    [conflict] = gql.data("conflicts", namespace=namespace)["conflicts"]
    gql.data("resolveConflict", namespace=namespace, id=conflict["id"], keep=[])
    assert merge_facts(gql, namespace) == {"allow": "superseded", "deni": "superseded"}


def test_merge_keeps_every_home_of_a_functional_relation_current(gql: GraphQLClient, namespace: str) -> None:
    set_mode(gql, namespace, "RELATION", "MERGE")
    say(
        gql,
        namespace,
        ("Omar", "Omar: I live in Lisbon.", "2023-01-10T09:00:00Z"),
        ("Omar", "Omar: I live in Porto.", "2023-05-10T09:00:00Z"),
    )
    omar = entity_id(gql, namespace, "Omar", "person")
    edges = gql.data("neighborhood", namespace=namespace, entityId=omar, depth=1)["neighborhood"]["edges"]
    homes = sorted((e["type"], e["validTo"]) for e in edges if e["type"] == "LIVES_IN")
    assert homes == [("LIVES_IN", None), ("LIVES_IN", None)]


def test_bad_modes_and_keys_without_the_role_change_nothing(
    app: InProcess, runtime: Runtime, gql: GraphQLClient, namespace: str
) -> None:
    assert gql.error_code("setConflictMode", namespace=namespace, kind="RELATION", mode="ASK") == "BAD_INPUT"
    assert gql.error_code("setConflictMode", namespace="Not A Namespace!", kind="ATTRIBUTE", mode="ASK") == "BAD_INPUT"
    secret = create_key(runtime.store, f"writer-{uuid.uuid4().hex[:8]}", KeyRole.WRITER, [namespace]).secret
    wait_until_known(app, secret)
    writer = app.graphql(secret)
    assert writer.error_code("setConflictMode", namespace=namespace, kind="ATTRIBUTE", mode="ASK") == "FORBIDDEN"
    modes = writer.data("conflictModes", namespace=namespace)["conflictModes"]
    assert modes == {"namespace": namespace, "attribute": "STRONGEST", "relation": "TEMPORAL"}
    assert history(gql, namespace, namespace) == []
