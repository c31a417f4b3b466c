"""An ahead-of-time class cache (JDK 25's AOT cache) for the embedded engine's JVMs that the suite
starts: its own two workers' and those of every `hippograph` process a test starts. A JVM that
maps it finds the classes a start needs (ArcadeDB's, from 60-odd jars) already parsed, verified
and linked, instead of doing that work again in every process; what the engine does is the same.

The cache is made once per checkout (in pytest's cache directory) by a `hippograph status` on a
store of its own, and is named after what it was made from: the JRE, the jars and the JVM options.
Tests only: a user's engine starts without it."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from support.processes import REPO

# The JVM writes its warnings to stdout unless told otherwise, where a command's output (JSON that
# the tests read) would carry them: a cache it cannot use, for one.
_WARNINGS_TO_STDERR = "-Xlog:disable -Xlog:all=warning:stderr"


def options_with_class_cache(options: str, cache_dir: Path) -> str | None:
    """``options`` (the JVM's, as HIPPOGRAPH_JVM_OPTIONS holds them) with the class cache, made
    first if this environment has none yet; None if it could not be made."""
    import arcadedb_embedded.jvm as engine

    cache = cache_dir / f"{_key(options, Path(engine.get_jar_path()), Path(engine.get_bundled_jre_lib_path()))}.aot"
    if not cache.exists():
        for stale in [*cache_dir.glob("*.aot"), *cache_dir.glob("*.partial")]:
            stale.unlink(missing_ok=True)
        _make(options, cache)
    if not cache.exists():
        return None
    return f"{options} -XX:AOTCache={cache} {_WARNINGS_TO_STDERR}"


def _key(options: str, jars: Path, libjvm: Path) -> str:
    digest = hashlib.sha256(options.encode())
    for path in [libjvm, *sorted(jars.glob("*.jar"))]:
        stat = path.stat()
        digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
    return digest.hexdigest()[:16]


def _make(options: str, cache: Path) -> None:
    """A short training run records the classes a start loads; the JVM writes the cache as it
    exits. Written under a name of this process's first: a run cut short leaves no half cache
    behind, and two runs that make one at once do not write into each other's."""
    partial = cache.with_suffix(f".{os.getpid()}.partial")
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO / "src"),
        "HIPPOGRAPH_JVM_OPTIONS": f"{options} -XX:AOTCacheOutput={partial} {_WARNINGS_TO_STDERR}",
    }
    with tempfile.TemporaryDirectory() as store:
        command = [sys.executable, "-m", "hippograph.cli", "--log-level", "WARNING", "status", "--data-dir", store]
        try:
            made = subprocess.run(command, env=env, capture_output=True, timeout=300, check=False).returncode == 0
        except subprocess.TimeoutExpired:
            made = False
    if made and partial.exists():
        partial.replace(cache)
    else:
        partial.unlink(missing_ok=True)
