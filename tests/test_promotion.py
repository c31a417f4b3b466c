"""Promotion between namespaces over the real store and GraphQL endpoint: each gate refusing, a
promotion (a copy with a PROMOTED_TO edge, the source untouched), automatic demotion when the source
stops holding (at consolidation, at modify) or its attesters fall below the quorum (forget), and
keys that may not use the target namespace."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from support.asgi import InProcess
from support.client import GraphQLClient, wait_until_known
from support.operations import consolidate_over_api, fact, forget, history
from support.statements import run_test_statement

from hippograph.access import KeyRole, create_key
from hippograph.client import Client, PromotionGate, PromotionStatus
from hippograph.runtime import Runtime

FACTS = """query Facts($namespace: String) { memories(namespace: $namespace, first: 50) { edges { node {
  __typename id ... on Fact { statement status origin supportedBy { id } } } } } }"""


def capture(
    gql: GraphQLClient, namespace: str, items: list[tuple[str, str]], at: str = "2024-01-01T10:00:00Z"
) -> list[str]:
    inputs = [
        {"namespace": namespace, "content": text, "agent": agent, "session": agent, "occurredAt": at}
        for agent, text in items
    ]
    return [r["id"] for r in gql.data("captureBatch", inputs=inputs)["captureBatch"]]


def facts(gql: GraphQLClient, namespace: str) -> list[dict[str, Any]]:
    edges = gql.execute(FACTS, namespace=namespace)["data"]["memories"]["edges"]
    return [edge["node"] for edge in edges if edge["node"]["__typename"] == "Fact"]


def fact_saying(gql: GraphQLClient, namespace: str, words: str) -> dict[str, Any]:
    [found] = [f for f in facts(gql, namespace) if words in f["statement"] and f["status"] == "active"]
    return found


def policy(gql: GraphQLClient, namespace: str, **settings: Any) -> dict[str, Any]:
    return gql.data("setPromotionPolicy", namespace=namespace, **settings)["setPromotionPolicy"]


def promote(gql: GraphQLClient, namespace: str, fact_id: str, target: str) -> dict[str, Any]:
    return gql.data("promote", namespace=namespace, id=fact_id, target=target)["promote"]


@pytest.fixture(scope="module")
def world(gql: GraphQLClient) -> dict[str, Any]:
    """Anna's job attested by ana and bo (one episode both captured), Melanie's job by both,
    Jon's studies by ana alone: ana attests two other current facts, bo one."""
    namespace = f"t-{uuid.uuid4().hex[:16]}"
    capture(
        gql,
        namespace,
        [
            ("ana", "Anna has a new job at Initech."),
            ("bo", "Anna has a new job at Initech."),
            ("ana", "Melanie works at Google."),
            ("bo", "Melanie works at Google."),
            ("ana", "Jon is studying chemistry at Stanford."),
        ],
    )
    assert consolidate_over_api(gql, namespace)["failed"] == 0
    return {
        "namespace": namespace,
        "shared": f"{namespace}-shared",
        "home": fact_saying(gql, namespace, "Initech")["id"],
        "job": fact_saying(gql, namespace, "Google")["id"],
        "studies": fact_saying(gql, namespace, "Stanford")["id"],
    }


def test_each_gate_refuses_in_turn_and_writes_nothing(gql: GraphQLClient, world: dict[str, Any]) -> None:
    namespace, shared, home = world["namespace"], world["shared"], world["home"]
    defaults = {"enabled": False, "quorum": 2, "threshold": 0.6, "priorSuccesses": 1.0, "priorFailures": 1.0}
    assert gql.data("promotionPolicy", namespace=namespace)["promotionPolicy"] == {
        "namespace": namespace,
        "promoted": 0,
        "policy": defaults,
    }

    refused = promote(gql, namespace, home, shared)
    assert (refused["status"], refused["failedGate"], refused["copy"]) == ("REFUSED", "POLICY", None)

    policy(gql, namespace, enabled=True, quorum=3)
    refused = promote(gql, namespace, home, shared)
    assert (refused["status"], refused["failedGate"]) == ("REFUSED", "QUORUM")
    assert refused["attesters"] == ["ana", "bo"] and refused["posterior"] is None

    refused = promote(gql, namespace, world["studies"], shared)
    assert refused["failedGate"] == "QUORUM"  # even with the quorum back at 2 below: one attester

    # ana: two other current facts, reliability 3/4; bo: one, 2/3. (1 + 3/4 + 2/3) / (2 + 2).
    expected = (1 + 3 / 4 + 2 / 3) / 4
    policy(gql, namespace, enabled=True, quorum=2, threshold=0.7)
    refused = promote(gql, namespace, home, shared)
    assert (refused["status"], refused["failedGate"]) == ("REFUSED", "RELIABILITY")
    assert refused["posterior"] == pytest.approx(expected)
    assert refused["policy"] == {**defaults, "enabled": True, "threshold": 0.7}

    # A sceptical prior lowers everyone's reliability: Beta(1, 3) gives (1 + 3/6 + 2/5) / 6.
    policy(gql, namespace, enabled=True, threshold=0.4, priorFailures=3.0)
    refused = promote(gql, namespace, home, shared)
    assert refused["failedGate"] == "RELIABILITY" and refused["posterior"] == pytest.approx((1 + 3 / 6 + 2 / 5) / 6)

    assert facts(gql, shared) == []
    assert history(gql, namespace, home) == []  # no "promoted" event: nothing was written


def test_a_fact_is_promoted_once_and_the_source_is_left_as_it_was(
    gql: GraphQLClient, world: dict[str, Any], runtime: Runtime, admin_name: str
) -> None:
    namespace, shared, home = world["namespace"], world["shared"], world["home"]
    before = fact(gql, namespace, home)
    policy(gql, namespace, enabled=True, quorum=2, threshold=0.6, priorFailures=1.0)

    promoted = promote(gql, namespace, home, shared)
    assert (promoted["status"], promoted["failedGate"]) == ("PROMOTED", None)
    copy = promoted["copy"]
    assert copy["namespace"] == shared and copy["status"] == "active" and copy["origin"] == "promoted"
    assert copy["statement"] == before["statement"] and copy["id"] != home
    after = fact(gql, namespace, home)
    assert {k: v for k, v in after.items() if k != "retention"} == {k: v for k, v in before.items() if k != "retention"}
    [edge] = run_test_statement(runtime.settings, "promoted_to", id=home)
    assert edge == {"id": copy["id"], "namespace": namespace, "target": shared, "actor": admin_name}

    [created] = history(gql, shared, copy["id"])
    assert created["event"] == "created" and created["metadata"]["promoted_from"] == home
    assert created["metadata"]["attesters"] == ["ana", "bo"]
    assert history(gql, namespace, home)[-1]["metadata"]["copy"] == copy["id"]

    again = promote(gql, namespace, home, shared)
    assert (again["status"], again["copy"]["id"]) == ("ALREADY_PROMOTED", copy["id"])
    assert [f["id"] for f in facts(gql, shared)] == [copy["id"]]
    assert gql.data("promotionPolicy", namespace=namespace)["promotionPolicy"]["promoted"] == 1


def test_the_python_client_promotes_and_reads_the_policy(
    app: InProcess, admin_secret: str, world: dict[str, Any]
) -> None:
    namespace, shared = world["namespace"], world["shared"]
    with Client(app.url, key=admin_secret, namespace=namespace, transport=app.transport()) as client:
        state = client.set_promotion_policy(True, quorum=2, threshold=0.6, prior_failures=1.0)
        assert state.policy.enabled and state.promoted == 1
        again = client.promote(world["home"], shared)
        assert again.status is PromotionStatus.ALREADY_PROMOTED and again.copy is not None
        assert again.copy.namespace == shared and again.copy.origin == "promoted"
        refused = client.promote(world["studies"], shared)
        assert (refused.status, refused.failed_gate, refused.attesters) == (
            PromotionStatus.REFUSED,
            PromotionGate.QUORUM,
            ["ana"],
        )
        assert client.promotion_policy().policy.threshold == 0.6


def test_a_fact_no_longer_current_is_refused(gql: GraphQLClient, world: dict[str, Any]) -> None:
    namespace, shared = world["namespace"], world["shared"]
    policy(gql, namespace, enabled=True, quorum=2, threshold=0.6, priorFailures=1.0)
    gql.data(
        "modify",
        input={"namespace": namespace, "id": world["job"], "statement": "Melanie works at Alphabet.", "reason": "test"},
    )
    refused = promote(gql, namespace, world["job"], shared)
    assert (refused["status"], refused["failedGate"]) == ("REFUSED", "CURRENT")


def test_bad_requests_are_refused_with_a_code(gql: GraphQLClient, world: dict[str, Any]) -> None:
    namespace = world["namespace"]
    assert gql.error_code("promote", namespace=namespace, id=world["home"], target=namespace) == "BAD_INPUT"
    assert gql.error_code("promote", namespace=namespace, id="01NOSUCHFACT", target=world["shared"]) == "NOT_FOUND"
    assert gql.error_code("promote", namespace=namespace, id=world["home"], target="Not A Namespace!") == "BAD_INPUT"
    for bad in ({"threshold": 1.5}, {"quorum": 0}, {"priorSuccesses": -1.0}):
        assert gql.error_code("setPromotionPolicy", namespace=namespace, enabled=True, **bad) == "BAD_INPUT"
    assert gql.data("promotionPolicy", namespace=namespace)["promotionPolicy"]["policy"]["quorum"] in (2, 3)


def test_the_key_must_be_allowed_on_both_namespaces(
    app: InProcess, runtime: Runtime, gql: GraphQLClient, world: dict[str, Any]
) -> None:
    namespace, shared, studies = world["namespace"], world["shared"], world["studies"]
    policy(gql, namespace, enabled=True, quorum=1, threshold=0.5, priorFailures=1.0)

    def writer(*namespaces: str) -> GraphQLClient:
        secret = create_key(runtime.store, f"writer-{uuid.uuid4().hex[:8]}", KeyRole.WRITER, list(namespaces)).secret
        wait_until_known(app, secret)
        return app.graphql(secret)

    source_only, target_only, both = writer(namespace), writer(shared), writer(namespace, shared)
    assert source_only.error_code("promote", namespace=namespace, id=studies, target=shared) == "FORBIDDEN"
    assert target_only.error_code("promote", namespace=namespace, id=studies, target=shared) == "FORBIDDEN"
    assert all(f["id"] != studies for f in facts(gql, shared))
    assert both.error_code("setPromotionPolicy", namespace=namespace, enabled=False) == "FORBIDDEN"

    promoted = both.data("promote", namespace=namespace, id=studies, target=shared)["promote"]
    assert promoted["status"] == "PROMOTED" and promoted["attesters"] == ["ana"]


def test_a_copy_is_demoted_when_its_source_loses_support(gql: GraphQLClient, namespace: str) -> None:
    shared = f"{namespace}-shared"
    episodes = capture(
        gql,
        namespace,
        [
            ("ana", "Anna has a new job at Initech."),
            ("bo", "Anna has a new job at Initech."),
            ("ana", "Melanie works at Google as a nurse consultant. She likes the team."),
            ("bo", "Melanie works at Google."),
            ("cy", "Jon is studying chemistry at Stanford."),
            ("dee", "Jon is studying chemistry at Stanford."),
        ],
    )
    consolidate_over_api(gql, namespace)
    anna, job, studies = (fact_saying(gql, namespace, words) for words in ("Initech", "Google", "Stanford"))
    assert {e["id"] for e in job["supportedBy"]} == {episodes[2], episodes[3]}
    policy(gql, namespace, enabled=True, quorum=2, threshold=0.5)
    copies = {}
    for source in (anna, job, studies):
        promoted = promote(gql, namespace, source["id"], shared)
        assert promoted["status"] == "PROMOTED", promoted
        copies[source["id"]] = promoted["copy"]["id"]

    def demotion(source: str) -> dict[str, Any]:
        assert fact(gql, shared, copies[source])["status"] == "quarantined"
        [demoted] = [e for e in history(gql, shared, copies[source]) if e["event"] == "demoted"]
        assert demoted["actor"] == "promotion" and demoted["metadata"]["source"] == source
        return dict(demoted["metadata"])

    # Consolidation supersedes Anna's job with a later one: her copy is demoted there and then.
    capture(gql, namespace, [("ana", "Anna now works at Umbrella Health.")], at="2024-06-01T10:00:00Z")
    consolidate_over_api(gql, namespace)
    assert fact(gql, namespace, anna["id"])["status"] == "superseded"
    assert demotion(anna["id"])["gate"] == "CURRENT"
    assert fact(gql, shared, copies[job["id"]])["status"] == "active"

    # bo's episode forgotten: Melanie's job still holds, on ana's word alone, below the quorum.
    forget(gql, namespace, ids=[episodes[3]], mode="EXECUTE", reason="test")
    assert fact(gql, namespace, job["id"])["status"] == "active"
    lost = demotion(job["id"])
    assert (lost["gate"], lost["attesters"]) == ("QUORUM", ["ana"])
    assert fact(gql, shared, copies[studies["id"]])["status"] == "active"

    # Modify supersedes Jon's studies: his copy goes too.
    gql.data(
        "modify",
        input={"namespace": namespace, "id": studies["id"], "statement": "Jon studies at MIT.", "reason": "test"},
    )
    assert demotion(studies["id"])["gate"] == "CURRENT"
    assert gql.data("promotionPolicy", namespace=namespace)["promotionPolicy"]["promoted"] == 0
    # A superseded source cannot be promoted again.
    assert promote(gql, namespace, anna["id"], shared)["failedGate"] == "CURRENT"
