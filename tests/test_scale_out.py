"""Many processes, one graph: three API servers (`serve --no-consolidation`) and two workers
(`hippograph worker`) over the suite's Neo4j, as it runs in production. Captures go to two servers,
a subscriber listens on the third, one worker is killed with SIGKILL while it holds leases, a key
is revoked through this process and a rate-limited key is spent across all three. Every
acknowledged capture must be readable everywhere, every event delivered once and in order, the
revoked key refused everywhere within 5 s, the budget held across servers, and the derived graph
the same as a single process derives from the same episodes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from support.client import HTTP_TIMEOUT_S, GraphQLClient
from support.processes import eventually, hippograph_process, serve_process
from test_crash_safety import EPISODES, captures
from ulid import ULID
from websockets.sync.client import ClientConnection, connect

from hippograph.access import KeyRole, create_key, revoke_key
from hippograph.consolidation.canonical import differences, dump
from hippograph.consolidation.worker import consolidate
from hippograph.kernel.resources import read_text
from hippograph.runtime import Runtime
from hippograph.store.changes import changes_after
from hippograph.store.limits import clear_failures

pytestmark = [
    pytest.mark.process,
    pytest.mark.skipif(
        not os.environ.get("NEO4J_URI"),
        reason="several processes share one store only on Neo4j: the embedded store belongs to the one "
        "process that opened it (others attach to it), so there is nothing to scale out",
    ),
]

SERVERS, WORKERS = 3, 2
LEASE_S = 6
# Workers derive in their own process (no pool: five processes on two cores are plenty), in small
# batches, so that the kill finds leases held; servers leave consolidation to them.
WORKER_ENV = {
    "HIPPOGRAPH_CONSOLIDATION_INTERVAL_S": "0.5",
    "HIPPOGRAPH_CONSOLIDATION_PROCESSES": "0",
    "HIPPOGRAPH_CONSOLIDATION_BATCH": "8",
    "HIPPOGRAPH_CONSOLIDATION_LEASE_S": str(LEASE_S),
}


# The revoked key's refusals below are failed authentications from this test's address: they
# must not make the servers refuse the address itself.
SERVER_ENV = {"HIPPOGRAPH_AUTH_FREE_FAILURES": "1000"}


@pytest.fixture
def servers(tmp_path: Path, runtime: Runtime) -> Iterator[list[str]]:
    started: list[subprocess.Popen[bytes]] = []
    urls = []
    try:
        for i in range(SERVERS):
            process, url = serve_process(
                tmp_path / f"server{i}", tmp_path / f"server{i}.log", SERVER_ENV, "--no-consolidation"
            )
            started.append(process)
            urls.append(url)
        yield urls
    finally:
        for process in started:
            process.send_signal(signal.SIGTERM)
        for process in started:
            process.wait(timeout=60)
        clear_failures(runtime.store, "127.0.0.1")  # the count is shared with the suite's server


def test_three_servers_and_two_workers_share_one_graph(
    servers: list[str], tmp_path: Path, runtime: Runtime, gql: GraphQLClient, admin_secret: str, namespace: str
) -> None:
    # The reference: the same episodes, consolidated by this one process before any worker runs.
    reference = namespace + "-single"
    inputs = captures(reference)
    for start in range(0, EPISODES, 32):
        gql.data("captureBatch", inputs=inputs[start : start + 32])
    assert consolidate(runtime, namespace=reference).processed == EPISODES

    clients = [GraphQLClient(url, admin_secret) for url in servers]
    events: list[dict] = []
    with connect(servers[2].replace("http", "ws", 1) + "/graphql", subprotocols=["graphql-transport-ws"]) as socket:
        socket.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {admin_secret}"}}))
        assert json.loads(socket.recv(timeout=HTTP_TIMEOUT_S))["type"] == "connection_ack"
        subscribe = {
            "query": read_text("graphql/operations/memoryEvents.graphql"),
            "variables": {"namespace": namespace, "after": "0"},
        }
        socket.send(json.dumps({"id": "1", "type": "subscribe", "payload": subscribe}))
        # Read all along, as a client does: one that stops reading stops answering pings too.
        reader = threading.Thread(target=_read_events, args=(socket, events), daemon=True)
        reader.start()

        workers = [
            # This namespace only: the suite's other tests share this Neo4j, and consolidate
            # their own namespaces when they mean to.
            hippograph_process(
                "worker",
                "--namespace",
                namespace,
                data_dir=tmp_path / f"worker{i}",
                log=tmp_path / f"worker{i}.log",
                env=WORKER_ENV,
            )
            for i in range(WORKERS)
        ]
        try:
            acknowledged = []
            lines = captures(namespace)
            for batch, start in enumerate(range(0, EPISODES, 10)):
                results = clients[batch % 2].data("captureBatch", inputs=lines[start : start + 10])["captureBatch"]
                acknowledged += [r["id"] for r in results if r["status"] == "CREATED"]
            assert len(acknowledged) == EPISODES

            def status() -> dict:
                return clients[0].data("status", namespace=namespace)["status"]

            eventually(lambda: status()["consolidated"] > 0 and status()["leased"] > 0, within_s=300)
            workers[0].send_signal(signal.SIGKILL)  # mid-batch: it holds leases
            workers[0].wait(timeout=30)
            eventually(lambda: status()["consolidated"] == EPISODES, within_s=600)
        finally:
            for worker in workers:
                if worker.poll() is None:
                    worker.send_signal(signal.SIGTERM)
                    worker.wait(timeout=60)

        # Every acknowledged capture is readable on every server.
        for client in clients:
            for memory_id in acknowledged:
                assert client.data("memory", id=memory_id, namespace=namespace)["memory"]["id"] == memory_id

        # Every event once, in order: the captures', then consolidation's, as the record holds them.
        expected = [row.id for row in changes_after(runtime.store, namespace, 0, 10_000)]
        eventually(lambda: len(events) >= len(expected), within_s=30)
        assert [int(e["cursor"]) for e in events] == list(range(1, len(expected) + 1))
        assert [e["id"] for e in events] == expected
        assert [e["id"] for e in events if e["kind"] == "CREATED" and e["actor"] != "consolidation"] == acknowledged

    # The derived graph is the one a single process derives.
    assert differences(dump(runtime.store, namespace), dump(runtime.store, reference)) == []

    # A key revoked here is refused by every server within 5 s.
    doomed = create_key(runtime.store, f"doomed-{ULID()}", KeyRole.READER, [namespace])
    eventually(lambda: all(_answers(url, doomed.secret) == 200 for url in servers), within_s=5)
    revoke_key(runtime.store, doomed.key.name)
    eventually(lambda: all(_answers(url, doomed.secret) == 401 for url in servers), within_s=5)

    # A key's budget is shared: 1 request a second with bursts of 2, across the three servers.
    limited = create_key(runtime.store, f"limited-{ULID()}", KeyRole.READER, [namespace], rate_per_s=1.0)
    eventually(lambda: all(_answers(url, limited.secret) != 401 for url in servers), within_s=5)
    time.sleep(2.5)  # the bucket full again
    start = time.monotonic()
    answers = [_answers(servers[i % SERVERS], limited.secret) for i in range(12)]
    elapsed = time.monotonic() - start
    admitted = answers.count(200)
    assert set(answers) <= {200, 429} and 429 in answers
    # At most the burst plus what the rate refilled meanwhile; each server alone would allow 2 + ...
    assert admitted <= 2 + int(elapsed) + 1, (answers, elapsed)


def _read_events(socket: ClientConnection, events: list[dict]) -> None:
    for raw in socket:
        message = json.loads(raw)
        if message["type"] == "ping":
            socket.send(json.dumps({"type": "pong"}))
        elif message["type"] == "next":
            events.append(message["payload"]["data"]["memoryEvents"])
        else:
            return


def _answers(url: str, secret: str) -> int:
    response = httpx.post(
        f"{url}/graphql",
        json={"query": "{ status { raw } }"},
        headers={"Authorization": f"Bearer {secret}"},
        timeout=HTTP_TIMEOUT_S,
    )
    return response.status_code
