"""Blocking destructive proposals over the real store and GraphQL endpoint (docs/memory-management.md,
Blocking destructive proposals): a namespace that turns it on supersedes no fact, closes no relation
and merges no entity by consolidation; each such proposal is recorded in History on the namespace
(event consolidation_blocked, actor consolidation-guard) and the rest of the episode is derived."""

from __future__ import annotations

import uuid
from typing import Any

from support.asgi import InProcess
from support.client import GraphQLClient, wait_until_known
from support.operations import entity_id, fact, facts_of, history
from test_conflict_modes import ALLOWED, DENIED, fact_ids, merge_facts, say, set_mode

from hippograph.access import KeyRole, create_key
from hippograph.runtime import Runtime

LISBON = ("Omar", "Omar: I live in Lisbon.", "2023-01-10T09:00:00Z")
PORTO = ("Omar", "Omar: I live in Porto.", "2023-05-10T09:00:00Z")
PORTO_AGAIN = ("Omar", "Omar: I live in Porto now.", "2023-09-10T09:00:00Z")


def block(gql: GraphQLClient, namespace: str, enabled: bool) -> dict:
    return gql.data("setBlockDestructive", namespace=namespace, enabled=enabled)["setBlockDestructive"]


def blocked(gql: GraphQLClient, namespace: str) -> list[dict[str, Any]]:
    events = [e for e in history(gql, namespace, namespace) if e["event"] == "consolidation_blocked"]
    assert all(e["actor"] == "consolidation-guard" for e in events)
    return [e["metadata"] for e in events]


def homes(gql: GraphQLClient, namespace: str) -> dict[str, Any]:
    """Omar's LIVES_IN edges: the place's name -> the edge's end."""
    omar = entity_id(gql, namespace, "Omar", "person")
    hood = gql.data("neighborhood", namespace=namespace, entityId=omar, depth=1)["neighborhood"]
    names = {node["id"]: node["name"] for node in hood["nodes"]}
    return {names[e["target"]]: e["validTo"] for e in hood["edges"] if e["type"] == "LIVES_IN"}


def test_a_blocked_supersede_keeps_the_believed_fact_and_quarantines_the_newcomer(
    gql: GraphQLClient, namespace: str
) -> None:
    set_mode(gql, namespace, "ATTRIBUTE", "USE_NEW")  # would supersede "allowed" with "denied"
    assert block(gql, namespace, True) == {"namespace": namespace, "enabled": True, "blocked": 0}
    say(gql, namespace, ALLOWED, DENIED)
    assert merge_facts(gql, namespace) == {"allow": "active", "deni": "quarantined"}
    ids = fact_ids(gql, namespace)
    [proposal] = blocked(gql, namespace)
    assert proposal["kind"] == "supersede" and proposal["mode"] == "use_new"
    assert (proposal["fact"], proposal["by"]) == (ids["allow"], ids["deni"])
    assert gql.data("blockDestructive", namespace=namespace)["blockDestructive"]["blocked"] == 1
    assert fact(gql, namespace, ids["allow"])["status"] == "active"


def test_a_blocked_relation_stays_open_and_turning_blocking_off_replays_nothing(
    gql: GraphQLClient, namespace: str, admin_name: str
) -> None:
    block(gql, namespace, True)
    say(gql, namespace, LISBON, PORTO)
    assert homes(gql, namespace) == {"Lisbon": None}  # Porto would have closed it in May
    statuses = {node["statement"]: fact(gql, namespace, node["id"])["status"] for node in facts_of(gql, namespace)}
    lisbon = next(s for s in statuses if "Lisbon" in s)
    porto = next(s for s in statuses if "Porto" in s)
    assert (statuses[lisbon], statuses[porto]) == ("active", "quarantined")
    [proposal] = blocked(gql, namespace)
    assert proposal["kind"] == "close_relation" and proposal["predicate"] == "LIVES_IN"
    assert [closed["status"] for closed in proposal["closes"]] == ["superseded"]
    assert proposal["closes"][0]["valid_to"].startswith("2023-05-10")

    # Off: what was blocked stays as it was; the next statement is revised as usual.
    assert block(gql, namespace, False) == {"namespace": namespace, "enabled": False, "blocked": 1}
    assert homes(gql, namespace) == {"Lisbon": None}
    say(gql, namespace, PORTO_AGAIN)
    assert homes(gql, namespace) == {"Porto": None}
    after = sorted(
        (fact(gql, namespace, node["id"])["status"], node["statement"] == porto)
        for node in facts_of(gql, namespace)
        if "Lisbon" in node["statement"] or "Porto" in node["statement"]
    )
    # Lisbon superseded by the new Porto fact; the one held aside stays quarantined, not replayed.
    assert after == [("active", False), ("quarantined", True), ("superseded", False)]
    assert len(blocked(gql, namespace)) == 1
    toggles = [
        (e["event"], e["actor"]) for e in history(gql, namespace, namespace) if "block_destructive" in e["event"]
    ]
    assert toggles == [("block_destructive_on", admin_name), ("block_destructive_off", admin_name)]


def test_a_blocked_merge_gives_the_name_an_entity_of_its_own(
    gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    block(gql, namespace, True)
    say(
        gql,
        namespace,
        ("Dana", "Dana: I work at Acme Robotics in Boston.", "2023-01-10T09:00:00Z"),
        ("Dana", "Dana: Acme Robotic shipped the new arm in Boston.", "2023-02-10T09:00:00Z"),
    )
    first = entity_id(gql, namespace, "Acme Robotics", "organization")
    second = entity_id(gql, namespace, "Acme Robotic", "organization")
    assert first != second
    [proposal] = blocked(gql, namespace)
    assert proposal["kind"] == "merge_entities" and proposal["name"] == "Acme Robotic"
    assert proposal["into"] == first and proposal["method"] == "fuzzy"


def test_only_an_admin_may_block_destructive_proposals(
    app: InProcess, runtime: Runtime, gql: GraphQLClient, namespace: str
) -> None:
    secret = create_key(runtime.store, f"writer-{uuid.uuid4().hex[:8]}", KeyRole.WRITER, [namespace]).secret
    wait_until_known(app, secret)
    writer = app.graphql(secret)
    assert writer.error_code("setBlockDestructive", namespace=namespace, enabled=True) == "FORBIDDEN"
    state = writer.data("blockDestructive", namespace=namespace)["blockDestructive"]
    assert state == {"namespace": namespace, "enabled": False, "blocked": 0}
    assert writer.error_code("blockDestructive", namespace=f"{namespace}-not-mine") == "FORBIDDEN"
    assert gql.error_code("setBlockDestructive", namespace="Not A Namespace!", enabled=True) == "BAD_INPUT"
    assert history(gql, namespace, namespace) == []
