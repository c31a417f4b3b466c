"""What the benchmarks share: the LoCoMo corpus, the store (``--store``), a ``hippograph serve``
subprocess, the machine.

Benchmarks run from a checkout as ``python bench/<name>.py``, so this module is importable as a
sibling; it needs no installed service.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import neo4j
import psutil

REPO = Path(__file__).resolve().parents[1]
OPERATIONS = REPO / "graphql" / "operations"
BENCH_DATA_VARIABLE = "HIPPOGRAPH_BENCH_DATA"
LOCOMO_DATE = "%I:%M %p on %d %B, %Y"  # e.g. "1:56 pm on 8 May, 2023"
READY_TIMEOUT_S = 180
STOP_TIMEOUT_S = 60
STORES = ("embedded", "neo4j")
# A store directory used with Neo4j holds this file: the Neo4j's content is that directory's store.
NEO4J_MARK = "neo4j-store"


def bench_data() -> Path:
    """The folder holding the evaluation data (``locomo-dev.json``, ``ner/``): the one place every
    script reads it from. It is not in the repository (see bench/README.md for what it holds)."""
    named = os.environ.get(BENCH_DATA_VARIABLE)
    folder = Path(named) if named else REPO.parent / "shared" / "bench"
    if not folder.is_dir():
        raise SystemExit(
            f"the evaluation data folder {folder} does not exist: set {BENCH_DATA_VARIABLE} to the folder "
            "that holds locomo-dev.json and ner/ (see bench/README.md)"
        )
    return folder


def locomo_dev() -> Path:
    """The LoCoMo dev set: five conversations and their questions."""
    return bench_data() / "locomo-dev.json"


@dataclass(frozen=True)
class Turn:
    sample_id: str
    session: int
    occurred_at: str
    speaker: str
    text: str
    dia_id: str


def load_turns(samples: list[dict[str, Any]]) -> list[Turn]:
    """Every turn, in conversation, session and turn order."""
    turns = []
    for sample in samples:
        conversation = sample["conversation"]
        numbers = sorted(int(m[1]) for key in conversation if (m := re.fullmatch(r"session_(\d+)", key)))
        for number in numbers:
            occurred_at = locomo_date(conversation[f"session_{number}_date_time"])
            for turn in conversation[f"session_{number}"]:
                turns.append(
                    Turn(
                        sample["sample_id"],
                        number,
                        occurred_at,
                        turn["speaker"],
                        turn["text"],
                        turn["dia_id"],
                    )
                )
    return turns


def locomo_date(text: str) -> str:
    # LoCoMo gives no time zone; the corpus treats session times as UTC.
    return datetime.strptime(text, LOCOMO_DATE).strftime("%Y-%m-%dT%H:%M:%SZ")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --- the store: embedded ArcadeDB in the data directory, or the Neo4j NEO4J_URI names ----------


def add_store_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--store",
        choices=STORES,
        default="embedded",
        help=(
            "embedded (default): ArcadeDB in the data directory; neo4j: the Neo4j of NEO4J_URI, NEO4J_USER, "
            "NEO4J_PASSWORD, NEO4J_DATABASE (`make neo4j-up && . .neo4j/env`), EMPTIED when a run starts a new store"
        ),
    )


def use_store(choice: str) -> None:
    """Point this process, and every server and process it starts, at the store chosen: Hippograph
    uses Neo4j exactly when NEO4J_URI is set."""
    if choice == "embedded":
        os.environ.pop("NEO4J_URI", None)
    elif not os.environ.get("NEO4J_URI"):
        sys.exit("--store neo4j needs NEO4J_URI and its credentials: make neo4j-up && . .neo4j/env")


def on_neo4j() -> bool:
    return bool(os.environ.get("NEO4J_URI"))


def neo4j_driver() -> neo4j.Driver:
    return neo4j.GraphDatabase.driver(
        os.environ["NEO4J_URI"],
        auth=(os.environ.get("NEO4J_USER", "neo4j"), os.environ.get("NEO4J_PASSWORD", "")),
        notifications_min_severity="OFF",
    )


def claim_neo4j(data_dir: Path) -> None:
    """On Neo4j, a store directory without the mark is a new store: the database is emptied, data
    and schema, as a fresh embedded store would be (the server sets its schema up again). With the
    mark, the directory's earlier run left the database as it is, and it is reused like an embedded
    store."""
    mark = data_dir / NEO4J_MARK
    if mark.exists():
        return
    empty_neo4j()
    mark.write_text(os.environ["NEO4J_URI"] + "\n")


def empty_neo4j() -> None:
    """Every node, relationship, constraint and index of the database, gone (token look-up indexes
    stay: Neo4j keeps them)."""
    with neo4j_driver() as driver, driver.session(database=os.environ.get("NEO4J_DATABASE", "neo4j")) as session:
        session.run("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS").consume()
        for (name,) in session.run("SHOW CONSTRAINTS YIELD name").values():
            session.run(f"DROP CONSTRAINT `{name}`").consume()
        for (name,) in session.run("SHOW INDEXES YIELD name, type WHERE type <> 'LOOKUP' RETURN name").values():
            session.run(f"DROP INDEX `{name}`").consume()


def neo4j_home() -> Path:
    """The local Neo4j's directory (`make neo4j-up`: NEO4J_HOME_DIR, default .neo4j in the checkout)."""
    return Path(os.environ.get("NEO4J_HOME_DIR", REPO / ".neo4j")).resolve()


def store_bytes(data_dir: Path) -> int:
    """Bytes the store holds on disk: the data directory; on Neo4j, its database's store files and
    transaction logs under the local Neo4j's home as well."""
    paths = [data_dir]
    if on_neo4j():
        database = os.environ.get("NEO4J_DATABASE", "neo4j")
        paths += [neo4j_home() / "data" / "databases" / database, neo4j_home() / "data" / "transactions" / database]
    return sum(f.stat().st_size for path in paths for f in path.rglob("*") if f.is_file())


def store_rss_mib() -> float:
    """The resident memory of the store's own process: 0 for the embedded store (it lives in the
    server's), the local Neo4j's JVM otherwise."""
    if not on_neo4j():
        return 0.0
    pid = int((neo4j_home() / "neo4j.pid").read_text())
    return round(int(proc_field("VmRSS", Path(f"/proc/{pid}/status")).removesuffix(" kB")) / 1024, 1)


def store_description() -> dict[str, Any]:
    if not on_neo4j():
        return {"store": "embedded"}
    with neo4j_driver() as driver:
        info = driver.execute_query("CALL dbms.components() YIELD versions, edition RETURN versions[0], edition")
    version, edition = info.records[0]
    return {"store": "neo4j", "neo4j_version": version, "neo4j_edition": edition}


@contextmanager
def running_server(
    data_dir: Path,
    port: int,
    *options: str,
    settings: Mapping[str, str] | None = None,
    checkout: Path = REPO,
) -> Iterator[subprocess.Popen[bytes]]:
    """``hippograph serve`` on the store chosen (``use_store``) until the block ends, however it
    ends, with any further ``options`` (``--no-consolidation``) and ``HIPPOGRAPH_*`` ``settings``
    over the environment's; its output is shown only if the block fails. ``checkout`` is the
    source tree served (another one: a baseline to compare with)."""
    if on_neo4j():
        claim_neo4j(data_dir)
    # Serve the checkout named (this script's by default), installed or not.
    python_path = os.pathsep.join(filter(None, [str(checkout / "src"), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, **(settings or {}), "PYTHONPATH": python_path}
    command = [
        sys.executable,
        "-m",
        "hippograph.cli",
        "serve",
        "--data-dir",
        str(data_dir),
        "--port",
        str(port),
        *options,
    ]
    with tempfile.TemporaryFile() as log:
        server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        try:
            wait_ready(server, f"http://127.0.0.1:{port}/readyz")
            yield server
        except Exception:
            log.seek(0)
            tail = log.read().decode(errors="replace")[-4000:]
            print(f"--- the end of hippograph serve's output ---\n{tail}", file=sys.stderr)
            raise
        finally:
            stop(server)


def wait_ready(server: subprocess.Popen[bytes], url: str) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"hippograph serve exited with code {server.returncode} before it was ready")
        try:
            # Ready serves as soon as the store answers; a benchmark also waits for the models,
            # so that their loading is not measured as the first requests' latency.
            response = httpx.get(url, timeout=5)
            if response.status_code == 200 and response.json().get("models") != "loading":
                return
        except httpx.TransportError:
            pass  # not listening yet
        time.sleep(0.5)
    raise RuntimeError(f"hippograph serve was not ready after {READY_TIMEOUT_S} s")


def stop(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def proc_field(name: str, path: Path) -> str:
    """The first ``name: value`` line of a /proc file."""
    match = re.search(rf"^{re.escape(name)}\s*:\s*(.+)$", path.read_text(), re.MULTILINE)
    if match is None:
        raise RuntimeError(f"no {name} in {path}")
    return match[1].strip()


def peak_rss_mib(pid: int) -> float:
    kib = int(proc_field("VmHWM", Path(f"/proc/{pid}/status")).removesuffix(" kB"))
    return round(kib / 1024, 1)


def summary(values: Sequence[float], *percentiles: int) -> dict[str, float]:
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    result = {"median": statistics.median(values)} | {f"p{p}": cuts[p - 1] for p in percentiles}
    return {key: round(value, 1) for key, value in result.items()}


def load_average() -> list[float]:
    return [float(value) for value in Path("/proc/loadavg").read_text().split()[:3]]


class CpuMeter:
    """How busy the cores were between ``start`` and ``stop``: the whole machine's, and a process
    tree's (a server and its worker processes). A load that keeps every core busy makes every
    request wait for one, whatever the server does: the figure tells that apart."""

    def __init__(self, pid: int) -> None:
        self.process = psutil.Process(pid)

    def start(self) -> None:
        self._machine = psutil.cpu_times()
        self._tree = self._tree_seconds()
        self._started = time.monotonic()

    def stop(self) -> dict[str, float]:
        wall = time.monotonic() - self._started
        now = psutil.cpu_times()
        idle = (now.idle + now.iowait) - (self._machine.idle + self._machine.iowait)
        total = sum(now) - sum(self._machine)
        return {
            "cores": psutil.cpu_count() or 1,
            "machine_busy_share": round(1 - idle / total, 3),
            "server_cores": round((self._tree_seconds() - self._tree) / wall, 2),
        }

    def _tree_seconds(self) -> float:
        return tree_cpu_seconds(self.process)


def tree_cpu_seconds(root: psutil.Process) -> float:
    """CPU seconds of a process and its live children; a child that exited meanwhile is not
    counted (a server's workers live as long as it does)."""
    seconds = 0.0
    for process in [root, *root.children(recursive=True)]:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        seconds += times.user + times.system
    return seconds


def write_result(out: Path, measured: Any, load_before: list[float]) -> dict[str, Any]:
    """The machine, the run and what it measured, written to ``out`` as JSON, and returned."""
    result = {"machine": machine(), "run": run_record(load_before), "result": measured}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2))
    return result


def run_record(load_before: list[float]) -> dict[str, Any]:
    """What a result file says of its run: when, the command, the commit, the load around it."""
    return {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": " ".join(["python", *sys.argv]),
        **git_revision(),
        "load_average_before": load_before,
        "load_average_after": load_average(),
    }


def machine() -> dict[str, Any]:
    return {
        "cpu": proc_field("model name", Path("/proc/cpuinfo")),
        "cores": os.cpu_count(),
        "ram_gib": round(
            int(proc_field("MemTotal", Path("/proc/meminfo")).removesuffix(" kB")) / 1024**2,
            1,
        ),
        "python": platform.python_version(),
        "os": platform.platform(),
        **store_description(),
    }


def git_revision() -> dict[str, Any]:
    """The commit measured, and whether the service's files differed from it."""
    commit = git("rev-parse", "HEAD")
    if not commit:
        return {"commit": None, "uncommitted_changes": None}
    return {
        "commit": commit,
        "uncommitted_changes": bool(git("status", "--porcelain", "--", "src", "cypher", "graphql")),
    }


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(REPO), *args], check=False, capture_output=True, text=True).stdout.strip()


class GraphQLClient:
    """The documented operations of ``graphql/operations/`` over HTTP, each request timed."""

    def __init__(
        self, base_url: str, operations: Sequence[str], timeout_s: float, operations_dir: Path = OPERATIONS
    ) -> None:
        """``operations_dir``: another checkout's operations, for a server of that checkout."""
        self.http = httpx.Client(base_url=base_url, timeout=timeout_s)
        self.operations = {name: (operations_dir / f"{name}.graphql").read_text() for name in operations}

    def post(self, operation: str, **variables: Any) -> tuple[float, dict[str, Any]]:
        """Milliseconds the request took, and its data; an error answer raises."""
        start = time.perf_counter()
        response = self.http.post("/graphql", json={"query": self.operations[operation], "variables": variables})
        elapsed_ms = (time.perf_counter() - start) * 1000
        response.raise_for_status()
        body = response.json()
        if body.get("errors"):
            raise RuntimeError(f"{operation} failed: {body['errors']}")
        return elapsed_ms, body["data"]


@contextmanager
def store_directory(choice: str, prefix: str) -> Iterator[Path]:
    """``tmp``: a temporary directory removed afterwards; anything else: that directory, created
    if missing. A plain kill becomes an exception, so that the server is stopped and a temporary
    store removed."""
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    if choice == "tmp":
        with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
            yield Path(tmp)
    else:
        path = Path(choice)
        path.mkdir(parents=True, exist_ok=True)
        yield path
