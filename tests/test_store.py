"""The store itself: idempotent schema, restart with data intact, the embedder failing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from support.capturing import capturing
from support.client import GraphQLClient
from support.own_store import store_of_its_own
from support.processes import REPO, eventually, serve_process

from hippograph.api.queries import recall_parts
from hippograph.capture.reembed import reembed_pending
from hippograph.capture.service import capture
from hippograph.embedding import Vector
from hippograph.kernel.model import CaptureInput
from hippograph.recall.request import RecallRequest
from hippograph.recall.service import recall
from hippograph.runtime import Runtime


def test_schema_setup_twice_changes_nothing(runtime: Runtime) -> None:
    before = runtime.store.read("schema_indexes")
    runtime.store.setup_schema()
    assert runtime.store.read("schema_indexes") == before
    kinds = {row["type"] for row in before}
    assert {"RANGE", "FULLTEXT", "VECTOR"} <= kinds


class BrokenEmbedder:
    def embed(self, texts: Sequence[str]) -> list[Vector]:
        raise RuntimeError("model unavailable")

    def embed_query(self, text: str) -> Vector:
        raise RuntimeError("model unavailable")


def test_the_embedded_engine_runs_with_the_configured_jvm_options(runtime: Runtime) -> None:
    if not runtime.settings.store.embedded:
        pytest.skip("Neo4j runs its own JVM")
    import jpype

    arguments = jpype.java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()
    assert set(runtime.settings.store.jvm_options.split()) <= {str(argument) for argument in arguments}


def test_python_and_java_collect_their_garbage_apart(runtime: Runtime) -> None:
    """JPype's hook, which would run a full Python collection after each Java one and may ask
    Java for a full one after each Python one, is not among Python's collector callbacks."""
    if not runtime.settings.store.embedded:
        pytest.skip("no JVM in this process: Neo4j runs its own")
    import gc

    import _jpype  # type: ignore[import-not-found]

    assert [hook for hook in gc.callbacks if getattr(hook, "__module__", None) == "_jpype"] == []
    gc.collect()  # a full collection, after which the hook would have weighed a Java one
    assert _jpype.gcStats()["python"] == 0, "JPype's hook ran after a Python collection"


def test_a_failing_embedder_loses_nothing(runtime: Runtime, gql: GraphQLClient, namespace: str) -> None:
    item = CaptureInput("The staging cluster runs on Hetzner.", namespace=namespace)
    [outcome] = capture(runtime.store, BrokenEmbedder(), *capturing(runtime), [item])
    stored = gql.data("memory", id=outcome.id, namespace=namespace)["memory"]
    assert stored["embedded"] is False

    keyword = gql.data("recall", input={"namespace": namespace, "query": "staging cluster"})["recall"]
    assert [h["memory"]["id"] for h in keyword["hits"]] == [outcome.id]

    while reembed_pending(runtime.store, runtime.embedder):
        pass
    assert gql.data("memory", id=outcome.id, namespace=namespace)["memory"]["embedded"] is True
    vector = gql.data(
        "recall", input={"namespace": namespace, "query": "where is pre-production hosted", "channels": ["VECTOR"]}
    )["recall"]
    assert vector["hits"][0]["memory"]["id"] == outcome.id


def test_a_failing_channel_degrades_instead_of_failing(runtime: Runtime, gql: GraphQLClient, namespace: str) -> None:
    # The vector and context channels need the embedder for the query; with it broken, keyword
    # still answers.
    item = CaptureInput("Invoices are archived for ten years.", namespace=namespace)
    [outcome] = capture(runtime.store, runtime.embedder, *capturing(runtime), [item])
    broken = replace(recall_parts(runtime), embedder=BrokenEmbedder())
    result = recall(broken, RecallRequest("invoices archived", namespace=namespace))
    assert [hit.memory.id for hit in result.hits] == [outcome.id]
    assert [d.channel.value for d in result.degraded] == ["vector", "context"]
    assert "degraded: vector" in result.context


# A browser frontend the keyless server's operator lists (HIPPOGRAPH_CORS_ORIGINS).
APP = "http://app.example"


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGTERM)
    # uvicorn drains, closes the store, then re-raises the signal: ended by SIGTERM, not killed.
    assert process.wait(timeout=60) in (0, -signal.SIGTERM)


@dataclass
class Restarted:
    """A `hippograph serve` on a store of its own that was stopped once, with a memory captured
    before the stop, and started again; its log holds both runs."""

    url: str
    log: Path
    data_dir: Path
    namespace: str
    created: dict[str, Any]
    process: subprocess.Popen[bytes]
    env: dict[str, str]  # what points a process at its store (support/own_store.py)

    def stop(self) -> None:
        if self.process.poll() is None:
            _stop(self.process)


@pytest.fixture(scope="module")
def restarted(tmp_path_factory: pytest.TempPathFactory, admin_secret: str) -> Iterator[Restarted]:
    """One store and server for this module's two process-level tests: the restart's, then the keyless
    server's (a store of its own has no keys, and a restart leaves it so; under Neo4j it is a second
    Neo4j, support/own_store.py). They run in this file's order: the keyless test makes the first
    keys, after which the restart test's client would need one."""
    directory = tmp_path_factory.mktemp("restarted")
    data_dir, log, namespace = directory / "data", directory / "serve.log", f"t-{uuid.uuid4().hex[:16]}"
    with store_of_its_own(directory) as own:
        process, url = serve_process(data_dir, log, env=own)
        try:
            client = GraphQLClient(url, admin_secret)
            created = client.data("capture", input={"namespace": namespace, "content": "Our SLA is 99.95% uptime."})
        finally:
            _stop(process)
        # Started again as the keyless test wants it: a browser frontend listed, metrics behind a
        # key. The keys the keyless test makes beside it are read again as often as the suite's
        # server does.
        env = {
            **own,
            "HIPPOGRAPH_CORS_ORIGINS": APP,
            "HIPPOGRAPH_METRICS_PUBLIC": "false",
            "HIPPOGRAPH_KEY_REFRESH_S": "0.5",
        }
        process, url = serve_process(data_dir, log, env=env)
        served = Restarted(url, log, data_dir, namespace, created["capture"], process, own)
        try:
            yield served
        finally:
            served.stop()


@pytest.mark.process
def test_data_survives_a_restart(restarted: Restarted, admin_secret: str) -> None:
    # A store of its own has no keys and ignores this one.
    client, namespace, memory_id = (
        GraphQLClient(restarted.url, admin_secret),
        restarted.namespace,
        restarted.created["id"],
    )
    assert "store closed" in restarted.log.read_text()  # by the first run: the second still serves
    assert client.data("memory", id=memory_id, namespace=namespace)["memory"]["content"] == "Our SLA is 99.95% uptime."
    hits = client.data("recall", input={"namespace": namespace, "query": "uptime SLA"})["recall"]["hits"]
    assert [h["memory"]["id"] for h in hits] == [memory_id]
    again = client.data("capture", input={"namespace": namespace, "content": "Our SLA is 99.95% uptime."})
    assert again["capture"] == {**restarted.created, "status": "DUPLICATE", "match": "EXACT"}


def _cli(
    data_dir: Path, *args: str, python: Sequence[str] = (), env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """A `hippograph` command run to its end, as a user types it (``python``: interpreter options)."""
    command = [
        sys.executable,
        *python,
        "-m",
        "hippograph.cli",
        "--log-level",
        "WARNING",
        *args,
        "--data-dir",
        str(data_dir),
    ]
    environment = {**os.environ, "PYTHONPATH": str(REPO / "src"), **(env or {})}
    return subprocess.run(command, check=False, env=environment, capture_output=True, text=True, timeout=120)


@pytest.mark.process
def test_a_keyless_server_is_local_only_and_takes_keys_made_beside_it(restarted: Restarted) -> None:
    data_dir, log, url, app = restarted.data_dir, restarted.log, restarted.url, APP
    # A second server on the store, exposed, is refused as the first would be: it has no key.
    exposed = _cli(data_dir, "serve", "--host", "0.0.0.0", "--port", "0", env=restarted.env)
    assert exposed.returncode == 2
    assert (
        exposed.stderr.strip()
        .splitlines()[-1]
        .startswith("hippograph serve: refusing to bind 0.0.0.0 without an API key")
    )
    assert "Traceback" not in exposed.stderr

    local = GraphQLClient(url)
    assert local.data("recall", input={"query": "anything"})["recall"]["hits"] == []
    # A page in the user's browser, directly or through a rebound host name, gets nothing.
    query = {"query": "{ __typename }"}
    assert local.http.post("/graphql", json=query, headers={"Origin": "http://evil.example"}).status_code == 403
    assert local.http.post("/graphql", json=query, headers={"Host": "evil.example"}).status_code == 400
    # A frontend the operator listed may call it from the browser, preflight included.
    preflight = local.http.options(
        "/graphql",
        headers={
            "Origin": app,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization",
        },
    )
    assert preflight.status_code == 200 and preflight.headers["access-control-allow-origin"] == app
    allowed = local.http.post("/graphql", json=query, headers={"Origin": app})
    assert allowed.status_code == 200 and allowed.headers["access-control-allow-origin"] == app
    assert local.http.get("/metrics").status_code == 200  # the local user needs no key

    # Store-only commands beside the server reach its engine, and load no model to do it.
    local.data("capture", input={"namespace": "side", "content": "The backup runs at 02:00."})
    status = _cli(data_dir, "status", "--namespace", "side", python=("-X", "importtime"), env=restarted.env)
    assert status.returncode == 0, status.stderr
    assert json.loads(status.stdout)["nodes"]["Episode"] == 1
    loaded = {line.rsplit("|", 1)[-1].strip() for line in status.stderr.splitlines() if line.startswith("import time")}
    assert not loaded & {"torch", "spacy", "sentence_transformers", "onnxruntime"}
    sweep = _cli(data_dir, "sweep", env=restarted.env)
    assert sweep.returncode == 0, sweep.stderr
    assert set(json.loads(sweep.stdout)) == {"erased", "expired_events", "history_purged"}

    # Keys made by the CLI beside the running server; from then on every request needs one.
    made = [
        _cli(data_dir, "keys", "create", "--name", name, "--role", "admin", "--all-namespaces", env=restarted.env)
        for name in ("ops", "ci")
    ]
    assert [m.returncode for m in made] == [0, 0], [m.stderr for m in made]
    ops, ci = (m.stdout.strip().splitlines()[-1] for m in made)
    eventually(lambda: local.http.post("/graphql", json=query).status_code == 401)
    keyed = GraphQLClient(url, ops)
    assert local.http.get("/metrics").status_code == 401  # keyed by HIPPOGRAPH_METRICS_PUBLIC=false
    assert keyed.http.get("/metrics").status_code == 200
    created = keyed.data("capture", input={"content": "The boiler is serviced in March."})["capture"]
    [event] = keyed.data("history", id=created["id"])["history"]
    assert event["actor"] == "ops"

    listing = _cli(data_dir, "keys", "list", env=restarted.env)
    rows = [line.split("\t") for line in listing.stdout.strip().splitlines()]
    assert [row[:3] for row in rows] == [["ci", "admin", "*"], ["ops", "admin", "*"]]
    assert ops not in listing.stdout + listing.stderr and ci not in listing.stdout + listing.stderr

    assert _cli(data_dir, "keys", "revoke", "ops", env=restarted.env).returncode == 0
    eventually(lambda: keyed.http.post("/graphql", json=query).status_code == 401)
    assert GraphQLClient(url, ci).http.post("/graphql", json=query).status_code == 200
    restarted.stop()  # the log is whole once the server has stopped
    assert ops not in log.read_text() and ci not in log.read_text()
