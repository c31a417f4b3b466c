"""Roles as commands: `serve --no-consolidation` serves the API and leaves the episodes raw;
`hippograph worker` consolidates them without HTTP, beside it (only the namespaces it is given,
when it is given some), and stops cleanly on SIGTERM. On
the embedded store the worker attaches to the server's engine, as every other command does."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from support.asgi import Server
from support.client import GraphQLClient
from support.metrics import scrape, value
from support.operations import capture_turns
from support.processes import eventually, hippograph_process, serve_process

pytestmark = pytest.mark.process

# The worker looks for work this often (and a server that consolidated would, too).
FAST = {"HIPPOGRAPH_CONSOLIDATION_INTERVAL_S": "0.5", "HIPPOGRAPH_CONSOLIDATION_PROCESSES": "0"}


# On Neo4j the suite's store holds keys, so a server on it is never keyless; there
# tests/test_scale_out.py runs API-only servers and workers over one Neo4j, with keys.
@pytest.mark.skipif(bool(os.environ.get("NEO4J_URI")), reason="a keyless store of its own; test_scale_out covers Neo4j")
def test_an_api_only_server_leaves_consolidation_to_a_worker(tmp_path: Path) -> None:
    log = tmp_path / "hippograph.log"
    server, url = serve_process(tmp_path / "data", log, FAST, "--no-consolidation")
    worker = None
    try:
        gql = GraphQLClient(url)
        turns = [
            ("Dana", f"Dana: I moved to Lisbon in spring, round {i}.", f"2023-01-0{1 + i}T10:00:00Z") for i in range(3)
        ]
        # Captured first, so a worker that took every namespace would lease it before the others.
        capture_turns(gql, "elsewhere", turns[:1], session="s1")
        capture_turns(gql, "roles", turns, session="s1")
        worker = hippograph_process("worker", "--namespace", "roles", data_dir=tmp_path / "data", log=log, env=FAST)
        eventually(lambda: gql.data("status", namespace="roles")["status"]["consolidated"] == 3, within_s=180)
        assert gql.data("status", namespace="elsewhere")["status"]["raw"] == 1  # not the worker's namespace
        # Every episode is consolidated, and not one of them by the server: the worker did them all.
        _, samples = scrape(Server(url))
        assert value(samples, "hippograph_captures_total", outcome="created") == 4  # its own counters
        assert value(samples, "hippograph_consolidation_episodes_total", outcome="committed") == 0
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(timeout=60) == 0
        assert b"hippograph worker consolidating (arcadedb)" in (worker.stdout.read() if worker.stdout else b"")
    finally:
        for process in (worker, server):
            if process is not None and process.poll() is None:
                process.send_signal(signal.SIGTERM)
                process.wait(timeout=60)


def test_a_worker_with_nothing_to_wait_for_says_so(tmp_path: Path) -> None:
    process = hippograph_process("worker", data_dir=tmp_path / "data", log=tmp_path / "log")
    assert process.wait(timeout=60) == 2
    assert b"HIPPOGRAPH_CONSOLIDATION_INTERVAL_S is 0" in (tmp_path / "log").read_bytes()


def test_a_worker_refuses_a_namespace_that_cannot_exist(tmp_path: Path) -> None:
    process = hippograph_process(
        "worker", "--namespace", "no such/name", data_dir=tmp_path / "data", log=tmp_path / "log", env=FAST
    )
    assert process.wait(timeout=60) == 2
    assert b"namespace must be 1-64 characters" in (tmp_path / "log").read_bytes()
    assert not (tmp_path / "data").exists()  # refused before the store opened: nothing written
