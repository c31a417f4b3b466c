"""One Hippograph for the whole run: a real store (embedded ArcadeDB, or Neo4j when NEO4J_URI is
set) behind a real uvicorn server, spoken to over HTTP. Each test works in its own namespace."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from hippograph.access import KeyRole, NewKey, create_key
from hippograph.api.app import create_app
from hippograph.config import Settings
from hippograph.resources import read_text
from hippograph.runtime import Runtime, open_runtime


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def runtime(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runtime]:
    # The background consolidator and sweeper stay off: tests run them when they choose to.
    # /metrics reads the backlog afresh on every scrape, so a test sees what it just did.
    settings = Settings.from_env().with_overrides(
        data_dir=tmp_path_factory.mktemp("store"),
        heap="768m",
        consolidation_interval_s=0.0,
        sweep_interval_s=0.0,
        metrics_backlog_cache_s=0.0,
    )
    runtime = open_runtime(settings)
    yield runtime
    runtime.close()


@pytest.fixture(scope="session")
def admin_key(runtime: Runtime) -> NewKey:
    """The test server has keys, as one on a network would: every client presents this one
    unless a test says otherwise. Named uniquely: a Neo4j under test may hold other runs' keys.
    Its rate is a bulk client's: the fuzz sends requests as fast as the server answers."""
    name = f"admin-{uuid.uuid4().hex[:8]}"
    return create_key(runtime.store, name, KeyRole.ADMIN, all_namespaces=True, rate_per_s=10_000)


@pytest.fixture(scope="session")
def admin_secret(admin_key: NewKey) -> str:
    return admin_key.secret


@pytest.fixture(scope="session")
def admin_name(admin_key: NewKey) -> str:
    return admin_key.key.name


@pytest.fixture(scope="session")
def base_url(runtime: Runtime, admin_secret: str) -> Iterator[str]:
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(runtime), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "test server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


class GraphQLClient:
    def __init__(self, base_url: str, secret: str | None = None, **http: Any) -> None:
        headers = {"Authorization": f"Bearer {secret}"} if secret else {}
        self.http = httpx.Client(base_url=base_url, timeout=60, headers=headers, **http)

    def execute(self, query: str, **variables: Any) -> dict[str, Any]:
        response = self.http.post("/graphql", json={"query": query, "variables": variables})
        assert response.status_code == 200, response.text
        return response.json()

    def operation(self, name: str, **variables: Any) -> dict[str, Any]:
        """Run one of the documented operations in graphql/operations/."""
        return self.execute(read_text(f"graphql/operations/{name}.graphql"), **variables)

    def data(self, name: str, **variables: Any) -> dict[str, Any]:
        body = self.operation(name, **variables)
        assert "errors" not in body, body["errors"]
        return body["data"]

    def error_code(self, name: str, **variables: Any) -> str:
        body = self.operation(name, **variables)
        assert body.get("errors"), f"expected an error, got {body}"
        return body["errors"][0]["extensions"]["code"]


@pytest.fixture(scope="session")
def gql(base_url: str, admin_secret: str) -> GraphQLClient:
    return GraphQLClient(base_url, admin_secret)


@pytest.fixture
def namespace() -> str:
    return f"t-{uuid.uuid4().hex[:16]}"


def census(runtime: Runtime, namespace: str) -> dict[str, int]:
    return {row["label"]: row["count"] for row in runtime.store.read("census_namespace", namespace=namespace)}


REPO = Path(__file__).resolve().parents[1]


def hippograph_process(
    *args: str, data_dir: Path, log: Path, env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """The `hippograph` command in its own process, on its own embedded data directory (or on
    NEO4J_URI when set), as a user would run it; stderr goes to ``log``."""
    env = {**os.environ, "PYTHONPATH": str(REPO / "src"), **(env or {})}
    command = [sys.executable, "-m", "hippograph.cli", *args, "--data-dir", str(data_dir), "--heap", "512m"]
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=log.open("ab"))


def eventually(check: Callable[[], bool], within_s: float = 5.0) -> float:
    """Seconds until ``check`` held; fails after ``within_s``."""
    start = time.monotonic()
    while not check():
        assert time.monotonic() - start < within_s, f"not within {within_s} s"
        time.sleep(0.1)
    return time.monotonic() - start


def capture_turns(gql: GraphQLClient, namespace: str, turns: list[tuple[str, str, str]], session: str) -> list[str]:
    """Capture (agent, content, occurredAt) turns of one session in one batch; their new ids."""
    inputs = [
        {"namespace": namespace, "content": text, "agent": agent, "session": session, "occurredAt": at}
        for agent, text, at in turns
    ]
    results = gql.data("captureBatch", inputs=inputs)["captureBatch"]
    assert [r["status"] for r in results] == ["CREATED"] * len(turns)
    return [r["id"] for r in results]
