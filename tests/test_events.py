"""The memoryEvents subscription over graphql-transport-ws, with a real websocket client: events
come from the store's change record, so a write made through another connection to the store (as
another server's would be) arrives too, and a subscriber resumes from its last cursor.

Each test's namespace is new, so subscribing ``after: "0"`` hears every event of the test, however
soon after the subscription its first write comes."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from support.asgi import Server
from support.capturing import capturing
from support.client import HTTP_TIMEOUT_S, GraphQLClient, key_in_force
from support.operations import consolidate_over_api, remember
from support.processes import eventually
from support.statements import bolt_driver, run_test_statement
from websockets.sync.client import ClientConnection, connect

from hippograph.access import KeyRole, create_key, revoke_key
from hippograph.capture.service import capture
from hippograph.kernel.model import CaptureInput
from hippograph.kernel.resources import read_text
from hippograph.runtime import Runtime
from hippograph.store import Store

PROTOCOL = "graphql-transport-ws"


@contextmanager
def subscription(
    server: Server, namespace: str, secret: str, kinds: list[str] | None = None, after: str | None = "0"
) -> Iterator[ClientConnection]:
    """A websocket subscribed to memoryEvents of a namespace, after ``after``."""
    with connect(server.url.replace("http", "ws", 1) + "/graphql", subprotocols=[PROTOCOL]) as socket:
        socket.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {secret}"}}))
        assert json.loads(socket.recv(timeout=HTTP_TIMEOUT_S))["type"] == "connection_ack"
        query = read_text("graphql/operations/memoryEvents.graphql")
        variables = {"namespace": namespace, "kinds": kinds, "after": after}
        socket.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": query, "variables": variables}}))
        yield socket
        socket.send(json.dumps({"id": "1", "type": "complete"}))


def next_event(socket: ClientConnection) -> dict[str, Any]:
    message = json.loads(socket.recv(timeout=HTTP_TIMEOUT_S))
    assert message["type"] == "next" and message["id"] == "1", message
    assert "errors" not in message["payload"], message
    return message["payload"]["data"]["memoryEvents"]


def test_events_arrive_in_order_for_their_namespace_only(
    gql: GraphQLClient, server: Server, runtime: Runtime, namespace: str, admin_secret: str
) -> None:
    other = namespace + "-other"
    with (
        subscription(server, namespace, admin_secret) as socket,
        subscription(server, other, admin_secret) as elsewhere,
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
    gql: GraphQLClient, server: Server, runtime: Runtime, namespace: str, admin_secret: str, admin_name: str
) -> None:
    with subscription(server, namespace, admin_secret, kinds=["ERASED"]) as socket:
        kept = remember(gql, namespace, "Dana's PIN hint is her cat.", key="pin")["fact"]
        gql.data("erase", namespace=namespace, id=kept["id"], reason="secret")
        event = next_event(socket)
        assert (event["kind"], event["id"], event["actor"]) == ("ERASED", kept["id"], admin_name)


def test_capture_and_consolidation_report_what_they_create_and_revise(
    gql: GraphQLClient, server: Server, runtime: Runtime, namespace: str, admin_secret: str
) -> None:
    turns = [
        ("Omar", "Omar: I live in Lisbon.", "2023-05-01T10:00:00Z"),
        ("Omar", "Omar: I don't live in Lisbon.", "2023-05-01T10:00:00Z"),
    ]
    inputs = [{"namespace": namespace, "content": text, "agent": agent, "occurredAt": at} for agent, text, at in turns]
    with subscription(server, namespace, admin_secret) as socket:
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


def test_a_write_through_another_connection_arrives_and_a_subscriber_resumes_from_its_cursor(
    gql: GraphQLClient, server: Server, runtime: Runtime, namespace: str, admin_secret: str
) -> None:
    # What another server sharing the store holds: a driver and a Store of its own, over Bolt.
    driver, database = bolt_driver(runtime.settings)
    other = Store(driver, database, runtime.store.dialect, attached=True)
    parts = (runtime.embedder, *capturing(runtime))
    try:
        with subscription(server, namespace, admin_secret) as socket:
            [here] = capture(runtime.store, *parts, [CaptureInput("Dana: the boiler is fixed.", namespace=namespace)])
            [there] = capture(other, *parts, [CaptureInput("Omar: the roof leaks.", namespace=namespace)])
            first, second = next_event(socket), next_event(socket)
        assert [first["id"], second["id"]] == [here.id, there.id]
        assert int(second["cursor"]) == int(first["cursor"]) + 1

        # Gone for a while; what was written meanwhile arrives on resuming, once each, in order.
        missed = [
            capture(other, *parts, [CaptureInput(f"Note {i}: the gate sticks.", namespace=namespace)])[0].id
            for i in range(3)
        ]
        with subscription(server, namespace, admin_secret, after=first["cursor"]) as socket:
            resumed = [next_event(socket)["id"] for _ in range(4)]
            assert resumed == [there.id, *missed]
            later = remember(gql, namespace, "Dana's boiler is new.", key="boiler")["fact"]
            assert next_event(socket)["id"] == later["id"]
    finally:
        other.close()


def test_a_bad_subscription_is_refused_with_a_code(server: Server, admin_secret: str, namespace: str) -> None:
    assert subscription_error(server, admin_secret, {"namespace": "not a namespace!"}) == "BAD_INPUT"
    assert subscription_error(server, admin_secret, {"namespace": namespace, "after": "-1"}) == "BAD_INPUT"
    assert subscription_error(server, admin_secret, {"namespace": namespace, "after": "²"}) == "BAD_INPUT"
    assert subscription_error(server, admin_secret, {"namespace": namespace, "after": "7"}) == "BAD_INPUT"  # ahead


def subscription_error(server: Server, secret: str, variables: dict[str, Any]) -> str:
    with connect(server.url.replace("http", "ws", 1) + "/graphql", subprotocols=[PROTOCOL]) as socket:
        socket.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {secret}"}}))
        assert json.loads(socket.recv(timeout=HTTP_TIMEOUT_S))["type"] == "connection_ack"
        query = read_text("graphql/operations/memoryEvents.graphql")
        socket.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": query, "variables": variables}}))
        message = json.loads(socket.recv(timeout=HTTP_TIMEOUT_S))
        assert message["type"] == "next", message
        assert json.loads(socket.recv(timeout=HTTP_TIMEOUT_S)) == {"id": "1", "type": "complete"}
        code: str = message["payload"]["errors"][0]["extensions"]["code"]
        return code


def _ends_with(socket: ClientConnection, code: str) -> None:
    """The subscription's next message is its end, with ``code``: no event came before it."""
    message = json.loads(socket.recv(timeout=HTTP_TIMEOUT_S))
    assert message["type"] == "next" and message["id"] == "1", message
    assert message["payload"]["data"] is None, message
    assert message["payload"]["errors"][0]["extensions"]["code"] == code, message
    assert json.loads(socket.recv(timeout=HTTP_TIMEOUT_S)) == {"id": "1", "type": "complete"}


def test_a_revoked_key_loses_its_open_subscription(
    gql: GraphQLClient, server: Server, runtime: Runtime, namespace: str
) -> None:
    name = f"watcher-{uuid.uuid4().hex[:8]}"
    secret = create_key(runtime.store, name, KeyRole.READER, all_namespaces=True).secret
    eventually(lambda: key_in_force(server, secret))
    with subscription(server, namespace, secret) as socket:
        remember(gql, namespace, "Dana's editor is Vim.", key="dana.editor")
        assert next_event(socket)["kind"] == "CREATED"
        revoke_key(runtime.store, name)
        eventually(lambda: not key_in_force(server, secret))
        remember(gql, namespace, "Dana's editor is Helix.", key="dana.editor")
        _ends_with(socket, "UNAUTHENTICATED")


def test_a_key_that_loses_the_namespace_loses_its_subscription(
    gql: GraphQLClient, server: Server, runtime: Runtime, namespace: str
) -> None:
    name = f"narrowed-{uuid.uuid4().hex[:8]}"
    secret = create_key(runtime.store, name, KeyRole.READER, [namespace, f"{namespace}-b"]).secret
    eventually(lambda: key_in_force(server, secret))
    with subscription(server, namespace, secret) as socket:
        run_test_statement(runtime.settings, "narrow_api_key", key_name=name, namespaces=[f"{namespace}-b"])
        # The server reads the keys every KEY_REFRESH_S; the subscription ends by itself, no event needed.
        _ends_with(socket, "FORBIDDEN")
