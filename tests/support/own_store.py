"""A store that holds nothing else, for a test that needs one: a fresh data directory on the
embedded engine, and under Neo4j (NEO4J_URI set) a second Neo4j of its own, started by the
repository's launcher (tools/neo4j/local_neo4j.py) in a directory of the test's. Neo4j Community
serves one user database, so a fresh one is a fresh server."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from support.processes import REPO

LAUNCHER = REPO / "tools" / "neo4j" / "local_neo4j.py"


@contextmanager
def store_of_its_own(directory: Path) -> Iterator[dict[str, str]]:
    """The environment that points a `hippograph` process at a store of its own (for the embedded
    engine, its ``--data-dir`` does, and this is empty); under Neo4j, stopped again on exit."""
    if not os.environ.get("NEO4J_URI"):
        yield {}
        return
    home = directory / "neo4j"
    # Small: it holds one test's data, beside the suite's Neo4j.
    sizes = ["--heap", "512m", "--pagecache", "128m"]
    launcher = [sys.executable, str(LAUNCHER)]
    subprocess.run([*launcher, "up", "--home", str(home), *sizes], check=True, stdout=subprocess.DEVNULL)
    try:
        yield _settings(home / "env")
    finally:
        subprocess.run([*launcher, "down", "--home", str(home)], check=True, stdout=subprocess.DEVNULL)


def _settings(env_file: Path) -> dict[str, str]:
    """The KEY=value lines of the launcher's env file (the export line names them again)."""
    pairs = (line.split("=", 1) for line in env_file.read_text().splitlines() if "=" in line)
    return {key: value for key, value in pairs}
