"""The memoryEvents subscription over graphql-transport-ws, with a real websocket client."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from support.client import GraphQLClient
from support.operations import consolidate_over_api, remember
from support.processes import eventually
from support.statements import run_test_statement
from websockets.sync.client import ClientConnection, connect

from hippograph.access import KeyRole, create_key, revoke_key
from hippograph.kernel.resources import read_text
from hippograph.runtime import Runtime

PROTOCOL = "graphql-transport-ws"


@contextmanager
def subscription(
    base_url: str, runtime: Runtime, namespace: str, secret: str, kinds: list[str] | None = None
) -> Iterator[ClientConnection]:
    """A websocket subscribed to memoryEvents of a namespace, returned once the server listens."""
    listening = runtime.events.listening(namespace)
    with connect(base_url.replace("http", "ws", 1) + "/graphql", subprotocols=[PROTOCOL]) as socket:
        socket.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {secret}"}}))
        assert json.loads(socket.recv(timeout=30))["type"] == "connection_ack"
        query = read_text("graphql/operations/memoryEvents.graphql")
        variables = {"namespace": namespace, "kinds": kinds}
        socket.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": query, "variables": variables}}))
        deadline = time.monotonic() + 30
        while runtime.events.listening(namespace) == listening:
            assert time.monotonic() < deadline, "the subscription never started"
            time.sleep(0.01)
        yield socket
        socket.send(json.dumps({"id": "1", "type": "complete"}))


def next_event(socket: ClientConnection) -> dict[str, Any]:
    message = json.loads(socket.recv(timeout=30))
    assert message["type"] == "next" and message["id"] == "1", message
    assert "errors" not in message["payload"], message
    return message["payload"]["data"]["memoryEvents"]


def test_events_arrive_in_order_for_their_namespace_only(
    gql: GraphQLClient, base_url: str, runtime: Runtime, namespace: str, admin_secret: str
) -> None:
    other = namespace + "-other"
    with (
        subscription(base_url, runtime, namespace, admin_secret) as socket,
        subscription(base_url, runtime, other, admin_secret) as elsewhere,
    ):
        first = remember(gql, namespace, "Dana's editor is Vim.", key="dana.editor")["fact"]
        second = remember(gql, namespace, "Dana's editor is Helix.", key="dana.editor")["fact"]
        gql.data("forget", input={"namespace": namespace, "ids": [second["id"]], "mode": "EXECUTE", "reason": "r"})
        gql.data("recover", namespace=namespace, id=second["id"])
        gql.data("erase", namespace=namespace, id=first["id"], reason="gdpr")
        there = remember(gql, other, "Elsewhere.", key="x")["fact"]

        seen = [next_event(socket) for _ in range(6)]
        assert [(e["kind"], e["id"]) for e in seen] == [
            ("CREATED", first["id"]),
            ("CREATED", second["id"]),
            ("SUPERSEDED", first["id"]),
            ("FORGOTTEN", second["id"]),
            ("RECOVERED", second["id"]),
            ("ERASED", first["id"]),
        ]
        assert seen[2]["related"] == [second["id"]] and seen[5]["reason"] == "gdpr"
        assert {e["namespace"] for e in seen} == {namespace}
        assert next_event(elsewhere)["id"] == there["id"]  # nothing of the first namespace came first


def test_a_subscription_can_choose_kinds(
    gql: GraphQLClient, base_url: str, runtime: Runtime, namespace: str, admin_secret: str, admin_name: str
) -> None:
    with subscription(base_url, runtime, namespace, admin_secret, kinds=["ERASED"]) as socket:
        kept = remember(gql, namespace, "Dana's PIN hint is her cat.", key="pin")["fact"]
        gql.data("erase", namespace=namespace, id=kept["id"], reason="secret")
        event = next_event(socket)
        assert (event["kind"], event["id"], event["actor"]) == ("ERASED", kept["id"], admin_name)


def test_capture_and_consolidation_report_what_they_create_and_revise(
    gql: GraphQLClient, base_url: str, runtime: Runtime, namespace: str, admin_secret: str
) -> None:
    turns = [
        ("Omar", "Omar: I live in Lisbon.", "2023-05-01T10:00:00Z"),
        ("Omar", "Omar: I don't live in Lisbon.", "2023-05-01T10:00:00Z"),
    ]
    inputs = [{"namespace": namespace, "content": text, "agent": agent, "occurredAt": at} for agent, text, at in turns]
    with subscription(base_url, runtime, namespace, admin_secret) as socket:
        episodes = [r["id"] for r in gql.data("captureBatch", inputs=inputs)["captureBatch"]]
        assert [(e["kind"], e["id"]) for e in (next_event(socket), next_event(socket))] == [
            ("CREATED", episodes[0]),
            ("CREATED", episodes[1]),
        ]
        consolidate_over_api(gql, namespace)
        created = [next_event(socket), next_event(socket)]
        assert [(e["kind"], e["related"]) for e in created] == [("CREATED", [episodes[0]]), ("CREATED", [episodes[1]])]
        disputed = [next_event(socket), next_event(socket)]
        facts = [e["id"] for e in created]
        assert [(e["kind"], e["id"], e["related"]) for e in disputed] == [
            ("CONTRADICTED", facts[1], [facts[0]]),
            ("CONTRADICTED", facts[0], [facts[1]]),
        ]
        assert {e["actor"] for e in disputed} == {"consolidation"}


def test_a_bad_subscription_is_refused_with_a_code(base_url: str, admin_secret: str) -> None:
    with connect(base_url.replace("http", "ws", 1) + "/graphql", subprotocols=[PROTOCOL]) as socket:
        socket.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {admin_secret}"}}))
        assert json.loads(socket.recv(timeout=30))["type"] == "connection_ack"
        query = read_text("graphql/operations/memoryEvents.graphql")
        payload = {"query": query, "variables": {"namespace": "not a namespace!"}}
        socket.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
        message = json.loads(socket.recv(timeout=30))
        assert message["type"] == "next", message
        assert message["payload"]["errors"][0]["extensions"]["code"] == "BAD_INPUT", message
        assert json.loads(socket.recv(timeout=30)) == {"id": "1", "type": "complete"}


def _key_in_force(base_url: str, secret: str) -> bool:
    response = httpx.post(
        f"{base_url}/graphql", json={"query": "{ __typename }"}, headers={"Authorization": f"Bearer {secret}"}
    )
    return response.status_code == 200


def _ends_with(socket: ClientConnection, code: str) -> None:
    """The subscription's next message is its end, with ``code``: no event came before it."""
    message = json.loads(socket.recv(timeout=30))
    assert message["type"] == "next" and message["id"] == "1", message
    assert message["payload"]["data"] is None, message
    assert message["payload"]["errors"][0]["extensions"]["code"] == code, message
    assert json.loads(socket.recv(timeout=30)) == {"id": "1", "type": "complete"}


def test_a_revoked_key_loses_its_open_subscription(
    gql: GraphQLClient, base_url: str, runtime: Runtime, namespace: str
) -> None:
    name = f"watcher-{uuid.uuid4().hex[:8]}"
    secret = create_key(runtime.store, name, KeyRole.READER, all_namespaces=True).secret
    eventually(lambda: _key_in_force(base_url, secret))
    with subscription(base_url, runtime, namespace, secret) as socket:
        remember(gql, namespace, "Dana's editor is Vim.", key="dana.editor")
        assert next_event(socket)["kind"] == "CREATED"
        revoke_key(runtime.store, name)
        eventually(lambda: not _key_in_force(base_url, secret))
        remember(gql, namespace, "Dana's editor is Helix.", key="dana.editor")
        _ends_with(socket, "UNAUTHENTICATED")
    assert eventually(lambda: runtime.events.listening(namespace) == 0) >= 0


def test_a_key_that_loses_the_namespace_loses_its_subscription(
    gql: GraphQLClient, base_url: str, runtime: Runtime, namespace: str
) -> None:
    name = f"narrowed-{uuid.uuid4().hex[:8]}"
    secret = create_key(runtime.store, name, KeyRole.READER, [namespace, f"{namespace}-b"]).secret
    eventually(lambda: _key_in_force(base_url, secret))
    with subscription(base_url, runtime, namespace, secret) as socket:
        run_test_statement(runtime.settings, "narrow_api_key", key_name=name, namespaces=[f"{namespace}-b"])
        # The server reads the keys every KEY_REFRESH_S; the subscription ends by itself, no event needed.
        _ends_with(socket, "FORBIDDEN")
