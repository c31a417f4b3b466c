"""A namespace is a tenant boundary: a key bound to one namespace reads and writes nothing of another,
whether it names the other namespace or passes the other namespace's ids, entity ids and filters."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any

import pytest
from support.asgi import InProcess, Server
from support.census import census, relationship_census
from support.client import HTTP_TIMEOUT_S, GraphQLClient, wait_until_known
from support.operations import consolidate_over_api
from support.processes import eventually

from hippograph.access import KeyRole, create_key
from hippograph.runtime import Runtime


@dataclass(frozen=True)
class Tenant:
    namespace: str
    client: GraphQLClient
    episodes: list[str]
    fact: str
    entities: list[str]
    texts: list[str]


def _tenant(runtime: Runtime, app: InProcess, data: bool) -> Tenant:
    namespace = f"iso-{uuid.uuid4().hex[:12]}"
    secret = create_key(runtime.store, f"{namespace}-admin", KeyRole.ADMIN, [namespace]).secret
    client = app.graphql(secret)
    eventually(lambda: client.http.post("/graphql", json={"query": "{ __typename }"}).status_code == 200)
    if not data:
        return Tenant(namespace, client, [], "", [], [])
    texts = [
        "Dana: I started at Acme Robotics in Lisbon last week.",
        "Omar: Dana said the Acme Robotics office is near the river.",
    ]
    inputs = [{"content": text, "agent": text.split(":")[0], "session": "s1", "tags": ["work"]} for text in texts]
    episodes = [r["id"] for r in client.data("captureBatch", inputs=inputs)["captureBatch"]]
    consolidate_over_api(client, namespace)
    fact = client.data(
        "remember", input={"statement": "Dana prefers green tea.", "kind": "PREFERENCE", "key": "dana.tea"}
    )
    entities = [e["node"]["id"] for e in client.data("entities", first=20)["entities"]["edges"]]
    assert len(entities) >= 2
    return Tenant(
        namespace, client, episodes, fact["remember"]["fact"]["id"], entities, [*texts, "Dana prefers green tea."]
    )


@pytest.fixture(scope="module")
def tenants(runtime: Runtime, app: InProcess) -> tuple[Tenant, Tenant]:
    return _tenant(runtime, app, data=True), _tenant(runtime, app, data=False)


def _snapshot(runtime: Runtime, victim: Tenant) -> dict[str, Any]:
    ids = [*victim.episodes, victim.fact, *victim.entities]
    return {
        "nodes": census(runtime, victim.namespace),
        "relationships": relationship_census(runtime, victim.namespace),
        "history": {i: victim.client.data("history", id=i)["history"] for i in ids},
        "memories": victim.client.data("memories", first=100)["memories"],
        "entities": victim.client.data("entities", first=100)["entities"],
    }


def _attempts(victim: Tenant, own: str) -> list[tuple[str, dict[str, Any]]]:
    """Every operation that takes a namespace, an id, an entity id or a filter, pointed at the
    victim: once naming its namespace, once passing its ids within the attacker's own."""
    episode, fact = victim.episodes[0], victim.fact
    source, target = victim.entities[:2]
    attempts: list[tuple[str, dict[str, Any]]] = []
    for namespace in (victim.namespace, own):
        ns = {"namespace": namespace}
        attempts += [
            ("recall", {"input": {**ns, "query": "Where did Dana start working?", "countAccess": False}}),
            (
                "recall",
                {
                    "input": {
                        **ns,
                        "query": "Acme",
                        "filters": {"agents": ["Dana"], "sessions": ["s1"], "tags": ["work"]},
                    }
                },
            ),
            ("memory", {**ns, "id": episode}),
            ("fact", {**ns, "id": fact}),
            ("memories", {**ns, "first": 100}),
            ("entities", {**ns, "search": "Acme", "first": 100}),
            ("neighborhood", {**ns, "entityId": source, "depth": 3}),
            ("timeline", {**ns, "entityId": source}),
            ("history", {**ns, "id": episode}),
            ("stats", ns),
            ("status", ns),
            ("forget", {"input": {**ns, "ids": [episode, fact]}}),
            ("forget", {"input": {**ns, "query": "Acme Dana tea"}}),
            ("forget", {"input": {**ns, "filters": {"agents": ["Dana"], "kinds": ["episode", "preference"]}}}),
            ("forget", {"input": {**ns, "ids": [episode, fact], "mode": "EXECUTE", "reason": "attack"}}),
            ("recover", {**ns, "id": episode}),
            ("pin", {**ns, "id": fact}),
            ("unpin", {**ns, "id": fact}),
            ("modify", {"input": {**ns, "id": fact, "statement": "Dana prefers coffee.", "reason": "attack"}}),
            ("addAlias", {**ns, "entityId": source, "alias": "the attack"}),
            ("mergeEntities", {**ns, "sourceId": source, "targetId": target, "reason": "attack"}),
            ("erase", {**ns, "id": episode, "reason": "attack"}),
            ("erase", {**ns, "id": fact, "reason": "attack"}),
            (
                "remember",
                {"input": {**ns, "statement": "Dana prefers coffee.", "kind": "PREFERENCE", "key": "dana.tea"}},
            ),
            ("capture", {"input": {**ns, "content": victim.texts[0], "agent": "Mallory"}}),
            ("captureBatch", {"inputs": [{**ns, "content": victim.texts[1], "agent": "Mallory"}]}),
            ("consolidate", ns),
            ("sweep", ns),
        ]
    return attempts


def _namespaces(variables: dict[str, Any]) -> set[str]:
    inputs = [variables, variables.get("input", {}), *variables.get("inputs", [])]
    return {given["namespace"] for given in inputs if "namespace" in given}


def test_a_key_reads_and_writes_nothing_across_the_boundary(runtime: Runtime, tenants: tuple[Tenant, Tenant]) -> None:
    victim, attacker = tenants
    before = _snapshot(runtime, victim)
    secrets = [*victim.episodes, victim.fact, *victim.entities, *victim.texts, "Lisbon", "Acme"]
    refused = 0
    for operation, variables in _attempts(victim, attacker.namespace):
        body = attacker.client.operation(operation, **variables)
        codes = [error["extensions"]["code"] for error in body.get("errors", [])]
        assert "INTERNAL" not in codes, (operation, body)
        if victim.namespace in _namespaces(variables):
            assert codes == ["FORBIDDEN"], (operation, body)
            refused += 1
        leaked = [s for s in secrets if s in json.dumps(body.get("data"))]
        assert not leaked, (operation, variables, leaked)
    assert refused == 28
    assert _snapshot(runtime, victim) == before


def test_a_subscription_to_another_namespace_is_refused(tenants: tuple[Tenant, Tenant], server: Server) -> None:
    from websockets.sync.client import connect

    from hippograph.kernel.resources import read_text

    victim, attacker = tenants
    secret = attacker.client.http.headers["authorization"].removeprefix("Bearer ")
    wait_until_known(server, secret)
    with connect(server.url.replace("http", "ws", 1) + "/graphql", subprotocols=["graphql-transport-ws"]) as socket:
        socket.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {secret}"}}))
        assert json.loads(socket.recv(timeout=HTTP_TIMEOUT_S))["type"] == "connection_ack"
        payload = {
            "query": read_text("graphql/operations/memoryEvents.graphql"),
            "variables": {"namespace": victim.namespace},
        }
        socket.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
        message = json.loads(socket.recv(timeout=HTTP_TIMEOUT_S))
    assert message["payload"]["errors"][0]["extensions"]["code"] == "FORBIDDEN"
