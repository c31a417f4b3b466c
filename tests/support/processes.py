"""Hippograph in processes of its own, as a user runs it, and waiting on what they do."""

from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

import httpx

REPO = Path(__file__).resolve().parents[2]


def announced_port(process: subprocess.Popen[bytes], log: Path, within_s: float = 180.0) -> int:
    """The port a server started with ``--port 0`` names on its standard output once it listens:
    the system picked a free one as the server bound it. A port picked beforehand was once taken
    by another of the suite's processes before the server could bind it. Fails with the server's
    log if it exits first."""
    assert process.stdout is not None
    lines: queue.Queue[bytes] = queue.Queue()

    def read(stdout: IO[bytes]) -> None:
        for line in stdout:  # read to the end: a full pipe would block the server's writes
            lines.put(line)
        lines.put(b"")

    threading.Thread(target=read, args=(process.stdout,), daemon=True).start()
    deadline = time.monotonic() + within_s
    while True:
        try:
            line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise AssertionError(f"no port announced within {within_s} s") from None
        assert line, f"exited with {process.wait()} before it listened: {log.read_text(errors='replace')[-3000:]}"
        if found := re.search(rb"http://[^\s/]+:(\d+)/", line):
            return int(found.group(1))


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
    process = hippograph_process("serve", "--port", "0", *flags, data_dir=data_dir, log=log, env=env)
    try:
        url = f"http://127.0.0.1:{announced_port(process, log)}"
        eventually(lambda: ready(url), within_s=180)
    except AssertionError:
        process.kill()
        raise
    return process, url


def ready(url: str) -> bool:
    try:
        return httpx.get(f"{url}/readyz", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False
