"""Every client string that reaches the store passes the credential scrubber, not only content.

Each test puts secrets into fields through the real GraphQL operations, reads every one of them back
through the API (and the store through its named queries), and checks that the marker stands where
the secret was and that no secret's body appears anywhere. Every secret is fake and assembled from
pieces at run time, so the repository gives secret scanners nothing to find.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from support.client import GraphQLClient
from support.operations import consolidate_over_api, entity_id

from hippograph.kernel.text.fields import scrub_json
from hippograph.lifecycle.pin import set_pinned
from hippograph.runtime import Runtime

GH_BODY = "a1B2c3D4e5F6g7H8i9J0" + "abcdefghijklmnop"  # 36 alphanumerics
GH = "gh" + "p_" + GH_BODY
AWS_BODY = "IOSFODNN7" + "EXAMPL2"
AWS = "AK" + "IA" + AWS_BODY
PW_BODY = "hunter2" + "Xq9"
PW = "password=" + PW_BODY
BODIES = (GH_BODY, AWS_BODY, PW_BODY)

GH_MARK = "[REDACTED:github_token]"
AWS_MARK = "[REDACTED:aws_access_key]"
PW_MARK = "[REDACTED:password_assignment]"


def assert_clean(*responses: Any) -> None:
    """No secret's body anywhere in these responses (any nesting, keys included)."""
    text = json.dumps(responses, default=str)
    for body in BODIES:
        assert body not in text


def history(gql: GraphQLClient, namespace: str, target: str) -> list[dict[str, Any]]:
    entries = gql.data("history", namespace=namespace, id=target)["history"]
    assert_clean(entries)
    return entries


def event(entries: list[dict[str, Any]], name: str) -> dict[str, Any]:
    [found] = [entry for entry in entries if entry["event"] == name]
    return found


def stored_episode(runtime: Runtime, namespace: str, episode_id: str) -> dict[str, Any]:
    [row] = runtime.store.read_listed("episodes_by_id", namespace=namespace, ids=[episode_id])
    assert_clean(row)
    return row


def stored_fact(runtime: Runtime, namespace: str, fact_id: str) -> dict[str, Any]:
    [row] = runtime.store.read("fact_properties", namespace=namespace, id=fact_id)
    props = {key: value for key, value in row["props"].items() if key != "embedding"}
    assert_clean(props)
    return props


FACT_FIELDS = """
query($id: ID!, $ns: String) {
  memory(id: $id, namespace: $ns) {
    id tags
    ... on Fact { statement kind key subject predicate object version status }
  }
}
"""


def read_fact(gql: GraphQLClient, namespace: str, fact_id: str) -> dict[str, Any]:
    memory = gql.execute(FACT_FIELDS, id=fact_id, ns=namespace)["data"]["memory"]
    assert memory is not None and memory["id"] == fact_id
    assert_clean(memory)
    return memory


def test_a_captures_agent_session_tags_and_metadata_are_scrubbed(
    gql: GraphQLClient, namespace: str, runtime: Runtime, admin_name: str
) -> None:
    agent, session = f"ci {GH}", f"run {AWS}"
    scrubbed_agent, scrubbed_session = f"ci {GH_MARK}", f"run {AWS_MARK}"
    metadata = {
        "note": f"deployed with {GH}",
        "password": PW_BODY,
        "nested": {"ids": [f"key {AWS}", 7, True, None]},
        PW: "a key holding a secret",
    }
    result = gql.data(
        "capture",
        input={
            "namespace": namespace,
            "content": f"Dana: the pump in hall B rattles again; {PW}",
            "agent": agent,
            "session": session,
            "tags": [f"  {PW} ", "pumps"],
            "metadata": metadata,
        },
    )["capture"]
    assert result["status"] == "CREATED"
    assert {r["kind"]: r["count"] for r in result["redactions"]} == {
        "password_assignment": 4,  # content, a tag, the metadata key and the value under "password"
        "github_token": 2,  # agent, metadata note
        "aws_access_key": 2,  # session, metadata list
    }
    assert_clean(result)
    episode_id = result["id"]

    expected_metadata = {
        "note": f"deployed with {GH_MARK}",
        "password": PW_MARK,
        "nested": {"ids": [f"key {AWS_MARK}", 7, True, None]},
        f"password={PW_MARK}": "a key holding a secret",
    }
    expected_tags = sorted([f"password={PW_MARK}", "pumps"])

    memory = gql.data("memory", id=episode_id, namespace=namespace)["memory"]
    assert_clean(memory)
    assert memory["content"] == f"Dana: the pump in hall B rattles again; password={PW_MARK}"
    assert (memory["agent"], memory["session"]) == (scrubbed_agent, scrubbed_session)
    assert memory["observedBy"] == [scrubbed_agent]
    assert memory["tags"] == expected_tags
    assert memory["metadata"] == expected_metadata

    listed = gql.data("memories", namespace=namespace, first=10)["memories"]["edges"]
    assert [edge["node"]["id"] for edge in listed] == [episode_id]
    assert_clean(listed)

    created = event(history(gql, namespace, episode_id), "created")
    assert created["actor"] == admin_name  # the key that captured, not the agent the client named
    assert created["metadata"]["redactions"] == {"password_assignment": 4, "github_token": 2, "aws_access_key": 2}

    recall = gql.data("recall", input={"namespace": namespace, "query": "pump rattles hall"})["recall"]
    assert_clean(recall)
    [hit] = [hit for hit in recall["hits"] if hit["memory"]["id"] == episode_id]
    assert (hit["memory"]["agent"], hit["memory"]["session"]) == (scrubbed_agent, scrubbed_session)
    assert "the pump in hall B rattles" in recall["context"]
    # Filters by the names the client captured with select what was stored under their scrubbed form.
    filters = {"agents": [agent], "sessions": [session], "tags": [PW]}
    filtered = gql.data("recall", input={"namespace": namespace, "query": "pump rattles hall", "filters": filters})
    assert [hit["memory"]["id"] for hit in filtered["recall"]["hits"]] == [episode_id]
    assert_clean(filtered)

    row = stored_episode(runtime, namespace, episode_id)
    assert (row["agent"], row["session"], row["observed_by"], row["tags"]) == (
        scrubbed_agent,
        scrubbed_session,
        [scrubbed_agent],
        expected_tags,
    )
    assert json.loads(row["metadata"]) == expected_metadata

    # The session is one identity: the same secret-bearing name continues the same chain, and the
    # stored name is the scrubbed one.
    again = {"namespace": namespace, "content": "Dana: fixed the pump.", "agent": agent, "session": session}
    later = gql.data("capture", input=again)["capture"]
    chain = [row["id"] for row in runtime.store.read("session_chain", namespace=namespace, session=scrubbed_session)]
    assert chain == [episode_id, later["id"]]
    assert runtime.store.read("session_chain", namespace=namespace, session=session) == []

    # Filters compare the way values are stored, so the name the client captured with still selects.
    preview = gql.data("forget", input={"namespace": namespace, "filters": {"sessions": [session], "tags": [PW]}})
    assert preview["forget"]["candidates"] == [episode_id]


def test_consolidation_derives_only_from_scrubbed_text(gql: GraphQLClient, namespace: str) -> None:
    captured = gql.data(
        "captureBatch",
        inputs=[
            {"namespace": namespace, "content": f"Dana: I work at Initech. My key is {AWS} and {PW}.", "agent": "Dana"},
            {"namespace": namespace, "content": f"Dana: Initech pushed with {GH} today.", "agent": f"Dana {GH}"},
        ],
    )["captureBatch"]
    assert [c["status"] for c in captured] == ["CREATED", "CREATED"]
    assert consolidate_over_api(gql, namespace)["failed"] == 0

    entities = gql.data("entities", namespace=namespace, first=100)["entities"]["edges"]
    assert entities and any(edge["node"]["name"] == "Initech" for edge in entities)
    assert_clean(entities)
    timeline = gql.data("timeline", namespace=namespace, entityId=entity_id(gql, namespace, "Initech", "organization"))
    assert timeline["timeline"]
    assert_clean(timeline)
    facts = gql.data("memories", namespace=namespace, first=100)["memories"]["edges"]
    assert any(edge["node"]["__typename"] == "Fact" for edge in facts)
    assert_clean(facts)
    recall = gql.data("recall", input={"namespace": namespace, "query": "Initech key pushed"})["recall"]
    assert recall["hits"] and AWS_MARK in recall["context"] + json.dumps(recall["hits"])
    assert_clean(recall)


def test_a_remembered_facts_names_and_tags_are_scrubbed_and_keep_their_identity(
    gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    names = {"key": f"deploy {GH}", "subject": f"account {AWS}", "predicate": f"uses {PW}", "object": f"ci {GH}"}
    scrubbed = {
        "key": f"deploy {GH_MARK}",
        "subject": f"account {AWS_MARK}",
        "predicate": f"uses password={PW_MARK}",
        "object": f"ci {GH_MARK}",
    }
    first = gql.data(
        "remember",
        input={"namespace": namespace, "statement": f"CI deploys with {GH}.", "tags": [f"aws {AWS}"], **names},
    )["remember"]
    assert first["status"] == "CREATED"
    assert {r["kind"]: r["count"] for r in first["redactions"]} == {
        "github_token": 3,  # statement, key, object
        "aws_access_key": 2,  # subject, tag
        "password_assignment": 1,  # predicate
    }
    assert (first["fact"]["key"], first["fact"]["subject"]) == (scrubbed["key"], scrubbed["subject"])
    assert_clean(first)
    fact_id = first["fact"]["id"]

    read = read_fact(gql, namespace, fact_id)
    assert read["statement"] == f"CI deploys with {GH_MARK}."
    assert {name: read[name] for name in scrubbed} == scrubbed
    assert read["tags"] == [f"aws {AWS_MARK}"]

    props = stored_fact(runtime, namespace, fact_id)
    assert {name: props[name] for name in scrubbed} == scrubbed
    assert (props["statement"], props["tags"]) == (f"CI deploys with {GH_MARK}.", [f"aws {AWS_MARK}"])

    created = event(history(gql, namespace, fact_id), "created")
    assert created["newContent"] == f"CI deploys with {GH_MARK}."
    assert created["metadata"]["redactions"] == {"github_token": 3, "aws_access_key": 2, "password_assignment": 1}

    # The same secret-bearing key names the same fact: an identical one is a duplicate, a new one supersedes.
    again = gql.data("remember", input={"namespace": namespace, "statement": f"CI deploys with {GH}.", **names})
    assert again["remember"]["status"] == "DUPLICATE" and again["remember"]["fact"]["id"] == fact_id
    newer = gql.data("remember", input={"namespace": namespace, "statement": "CI deploys by hand now.", **names})
    assert newer["remember"]["superseded"] == [fact_id]
    assert_clean(again, newer)


def test_modify_and_every_reason_in_history_are_scrubbed(gql: GraphQLClient, namespace: str, runtime: Runtime) -> None:
    original = gql.data("remember", input={"namespace": namespace, "statement": "The ci runner is rx-7.", "key": "ci"})
    fact_id = original["remember"]["fact"]["id"]

    changed = gql.data(
        "modify",
        input={
            "namespace": namespace,
            "id": fact_id,
            "statement": f"The ci runner uses {GH}.",
            "tags": [f"key {AWS}", "ci"],
            "reason": f"rotated, old one was {PW}",
        },
    )["modify"]
    assert_clean(changed)
    assert changed["statement"] == f"The ci runner uses {GH_MARK}."
    assert changed["tags"] == sorted([f"key {AWS_MARK}", "ci"])
    new_id = changed["id"]
    props = stored_fact(runtime, namespace, new_id)
    assert (props["statement"], props["tags"]) == (changed["statement"], changed["tags"])
    assert props["redactions"] == ["github_token", "aws_access_key"]

    reason = f"rotated, old one was password={PW_MARK}"
    modified = event(history(gql, namespace, new_id), "modified")
    assert (modified["reason"], modified["newContent"]) == (reason, f"The ci runner uses {GH_MARK}.")
    assert modified["metadata"]["redactions"] == {"github_token": 1, "aws_access_key": 1}
    assert event(history(gql, namespace, fact_id), "superseded")["reason"] == reason

    def reason_of(operation: str, **variables: Any) -> str:
        data = gql.data(operation, namespace=namespace, **variables)
        assert_clean(data)
        entries = history(gql, namespace, new_id)
        return entries[-1]["reason"]

    assert reason_of("pin", id=new_id, reason=f"pinned for {GH}") == f"pinned for {GH_MARK}"
    assert reason_of("unpin", id=new_id, reason=f"unpinned for {AWS}") == f"unpinned for {AWS_MARK}"

    forgotten = gql.data(
        "forget", input={"namespace": namespace, "mode": "EXECUTE", "ids": [new_id], "reason": f"gone {GH}"}
    )
    assert forgotten["forget"]["forgotten"] == [new_id]
    assert event(history(gql, namespace, new_id), "forgotten")["reason"] == f"gone {GH_MARK}"
    assert reason_of("recover", id=new_id, reason=f"back {PW}") == f"back password={PW_MARK}"
    assert event(history(gql, namespace, new_id), "recovered")["reason"] == f"back password={PW_MARK}"

    # Erasing scrubs the erased node's History of reasons; its own event keeps the (scrubbed) one.
    other = gql.data("remember", input={"namespace": namespace, "statement": "The spare runner is rx-8."})
    other_id = other["remember"]["fact"]["id"]
    erased = gql.data("erase", namespace=namespace, id=other_id, reason=f"leaked {AWS}")
    assert erased["erase"]["id"] == other_id
    assert event(history(gql, namespace, other_id), "erased")["reason"] == f"leaked {AWS_MARK}"


def test_an_actor_is_scrubbed_in_history(gql: GraphQLClient, namespace: str, runtime: Runtime) -> None:
    # Through the service: who the actor is will come from the API key, not from a GraphQL argument.
    remembered = gql.data("remember", input={"namespace": namespace, "statement": "Backups run at 2."})
    fact_id = remembered["remember"]["fact"]["id"]
    set_pinned(runtime.store, runtime.clock, namespace, fact_id, True, actor=f"agent {GH}", reason="keep")
    pinned = event(history(gql, namespace, fact_id), "pinned")
    assert (pinned["actor"], pinned["reason"]) == (f"agent {GH_MARK}", "keep")


def test_curation_refuses_a_secret_alias_and_scrubs_a_merge_reason(
    gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    gql.data(
        "captureBatch",
        inputs=[
            {"namespace": namespace, "content": "Dana: I work at Initech and I live in Lisbon.", "agent": "Dana"},
            {"namespace": namespace, "content": "Dana: Bruno from Initech Labs called.", "agent": "Dana"},
        ],
    )
    consolidate_over_api(gql, namespace)
    initech = entity_id(gql, namespace, "Initech", "organization")
    labs = entity_id(gql, namespace, "Initech Labs", None)

    body = gql.operation("addAlias", namespace=namespace, entityId=initech, alias=f"the {GH} shop")
    assert body["errors"][0]["extensions"]["code"] == "BAD_INPUT"
    assert "github_token" in body["errors"][0]["message"]
    assert_clean(body)
    assert runtime.store.read("aliases_of_namespace", namespace=namespace) == []
    assert "aliased" not in [entry["event"] for entry in history(gql, namespace, initech)]

    merged = gql.data("mergeEntities", namespace=namespace, sourceId=labs, targetId=initech, reason=f"same {PW}")
    assert_clean(merged)
    assert event(history(gql, namespace, labs), "merged")["reason"] == f"same password={PW_MARK}"
    aliases = runtime.store.read("aliases_of_namespace", namespace=namespace)
    assert "Initech Labs" in [row["alias"] for row in aliases]
    assert_clean(aliases)


def test_a_namespace_holding_a_credential_is_refused(gql: GraphQLClient) -> None:
    body = gql.operation("capture", input={"namespace": AWS, "content": "hello"})
    assert body["errors"][0]["extensions"]["code"] == "BAD_INPUT"
    assert_clean(body)


PLAIN_METADATA = {"max_tokens": 4096, "tokens": ["a"], "ok": True, "password": PW_MARK}


@pytest.mark.parametrize(
    ("metadata", "expected", "counts"),
    [
        # Names the rules know make whatever they hold a secret, numbers and nested values too.
        ({"DB_PASSWORD": 12345678}, {"DB_PASSWORD": PW_MARK}, {"password_assignment": 1}),
        (
            {"client_secret": {"prod": "x1y2z3w4v5", "ok": True}},
            {"client_secret": {"prod": "[REDACTED:generic_api_key_assignment]", "ok": True}},
            {"generic_api_key_assignment": 1},
        ),
        # A header the rules know by its name is redacted whole, scheme and all.
        (
            {"headers": {"Authorization": "Basic " + "dXNlcjpw" + "YXNzd29yZA=="}},
            {"headers": {"Authorization": "[REDACTED:authorization_token]"}},
            {"authorization_token": 1},
        ),
        # Ordinary names and values pass untouched; a marker already there stays and is not counted.
        (PLAIN_METADATA, PLAIN_METADATA, {}),
        # Two keys that differ only in their secrets both keep their values.
        (
            {PW: 1, "password=" + PW_BODY[::-1]: 2},
            {f"password={PW_MARK}": 1, f"password={PW_MARK} (2)": 2},
            {"password_assignment": 2},
        ),
    ],
)
def test_scrub_json(metadata: dict[str, Any], expected: dict[str, Any], counts: dict[str, int]) -> None:
    tally: Counter[str] = Counter()
    assert scrub_json(metadata, tally) == expected
    assert dict(tally) == counts
