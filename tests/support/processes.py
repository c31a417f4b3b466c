"""Hippograph in processes of its own, as a user runs it, and waiting on what they do."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def hippograph_process(
    *args: str, data_dir: Path, log: Path, env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """The `hippograph` command in its own process, on its own embedded data directory (or on
    NEO4J_URI when set), as a user would run it; stderr goes to ``log``. A server's background
    consolidation stays off unless ``env`` turns it on, as in the suite's own server: the tests
    consolidate when they mean to, and a server that did it by itself would start two derive
    processes, each loading the models, for a test that never looks at the graph."""
    env = {**os.environ, "PYTHONPATH": str(REPO / "src"), "HIPPOGRAPH_CONSOLIDATION_INTERVAL_S": "0", **(env or {})}
    command = [sys.executable, "-m", "hippograph.cli", *args, "--data-dir", str(data_dir), "--heap", "512m"]
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=log.open("ab"))


def eventually(check: Callable[[], bool], within_s: float = 30.0) -> float:
    """Seconds until ``check`` held; fails after ``within_s``. The default is a wait, not a claim
    about time: long enough for a server on a loaded machine to read new keys (a CI run waited
    more than 5 s for one). A test whose point is a bound passes it."""
    start = time.monotonic()
    while not check():
        assert time.monotonic() - start < within_s, f"not within {within_s} s"
        time.sleep(0.1)
    return time.monotonic() - start


def serve_process(
    data_dir: Path, log: Path, env: dict[str, str] | None = None, *flags: str
) -> tuple[subprocess.Popen[bytes], str]:
    """A real `hippograph serve` process (with ``flags``), once it reports ready, and its URL."""
    port = free_port()
    process = hippograph_process("serve", "--port", str(port), *flags, data_dir=data_dir, log=log, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        assert process.poll() is None, "hippograph serve exited during start-up"
        try:
            if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                return process, url
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    process.kill()
    raise AssertionError("hippograph serve did not become ready")
