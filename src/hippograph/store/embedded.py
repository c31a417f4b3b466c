"""ArcadeDB running inside this process, reachable over Bolt on a loopback port."""

from __future__ import annotations

import json
import logging
import os
import secrets
import socket
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["DATABASE", "BoltTarget", "EmbeddedArcadeDB", "running_engine"]

log = logging.getLogger(__name__)

_LOGGING_CONFIG = Path(__file__).with_name("arcadedb-logging.properties")
DATABASE = "hippograph"
# Where a process that holds the store says how to reach its engine: the engine locks its files,
# so another process (a CLI command beside a server) connects over Bolt instead of opening them.
_RUNNING = "bolt.json"


@dataclass(frozen=True)
class BoltTarget:
    uri: str
    user: str
    password: str
    database: str


class EmbeddedArcadeDB:
    """Starts and stops the engine; owns its data directory. One per process (the JVM is shared)."""

    def __init__(self, data_dir: Path, heap: str, jvm_options: Sequence[str] = ()) -> None:
        self.data_dir = data_dir.resolve()
        self.heap = heap
        self.jvm_options = list(jvm_options)
        self._server: Any = None
        self._database: Any = None

    def start(self) -> BoltTarget:
        # Imported here: loading the package is cheap but starting the JVM is not, and a Neo4j
        # deployment never needs it.
        import arcadedb_embedded
        from arcadedb_embedded.jvm import start_jvm

        _unlink_collectors()
        start_jvm(
            heap_size=self.heap,
            # -Xrs leaves SIGTERM and SIGINT to Python, so that serve drains requests and closes the
            # store itself instead of the JVM ending the process under it.
            jvm_args=["-Xrs", f"-Djava.util.logging.config.file={_LOGGING_CONFIG}", *self.jvm_options],
        )
        self.data_dir.mkdir(parents=True, exist_ok=True)
        password = self._root_password()
        bolt_port = _free_loopback_port()
        self._server = arcadedb_embedded.create_server(
            root_path=str(self.data_dir),
            root_password=password,
            config={
                "host": "127.0.0.1",
                "http_port": _free_loopback_port(),
                "server_plugins": "Bolt:com.arcadedb.bolt.BoltProtocolPlugin",
                "bolt_port": bolt_port,
            },
        )
        self._server.start()
        self._database = self._server.create_database(DATABASE)
        log.info("embedded ArcadeDB at %s, Bolt on 127.0.0.1:%d", self.data_dir, bolt_port)
        target = BoltTarget(f"bolt://127.0.0.1:{bolt_port}", "root", password, DATABASE)
        running = self.data_dir / _RUNNING
        running.write_text(json.dumps({"pid": os.getpid(), "uri": target.uri}), encoding="utf-8")
        running.chmod(0o600)
        return target

    def sql(self, statement: str) -> None:
        self._database.command("sql", statement)

    def stop(self) -> None:
        if self._server is not None:
            # This process holds the engine's lock, so any record there is its own or stale.
            (self.data_dir / _RUNNING).unlink(missing_ok=True)
            self._server.stop()
            self._server = self._database = None

    def _root_password(self) -> str:
        # ArcadeDB records the root password when it first creates a server directory; keep ours
        # beside the data so that a restart can log in again.
        path = self.data_dir / "root-password"
        if not path.exists():
            path.write_text(secrets.token_urlsafe(24), encoding="utf-8")
            path.chmod(0o600)
        return path.read_text(encoding="utf-8").strip()


def running_engine(data_dir: Path) -> BoltTarget | None:
    """The engine another live process runs on ``data_dir``, if one does."""
    try:
        record = json.loads((data_dir / _RUNNING).read_text(encoding="utf-8"))
        password = (data_dir / "root-password").read_text(encoding="utf-8").strip()
        pid, uri = int(record["pid"]), str(record["uri"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if pid == os.getpid():
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None  # it died without stopping: the engine's lock went with it
    except PermissionError:
        pass  # alive, under another user
    return BoltTarget(uri, "root", password, DATABASE)


def _unlink_collectors() -> None:
    """Keep Python's and Java's garbage collectors apart. As the JVM starts, JPype links them:
    each Java collection then runs a full Python collection on JPype's reference thread, holding
    the interpreter's lock and stalling every request thread meanwhile, and each Python
    collection may ask Java for a full one. The link serves objects that live on both sides; over
    Bolt none do, so each heap is collected well enough alone. JPype has no switch for it, but
    reads its hook (``_jpype._collect``, added to ``gc.callbacks``) once, as the JVM starts: the
    hook replaced beforehand is never called, and without it the link stays off after at most one
    more full collection. Measured in docs/benchmarks.md ("The two collectors unlinked")."""
    import _jpype  # type: ignore[import-not-found]  # JPype's extension module, without stubs

    _jpype._collect = _not_linked


def _not_linked(_phase: str, _info: dict[str, int]) -> None:
    """Stands in for JPype's collector hook: does nothing."""


def _free_loopback_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
