"""`hippograph import`: a bad line is named by its number, and a file with one writes nothing.

The command runs in its own process beside the suite's store, as a user runs it beside a server: it
reaches the store through the engine this process holds (over Bolt) instead of starting one of its
own, so each import costs a process, not a process and an engine. An import into a store of its own
is test_crash_safety's first step."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.processes import REPO, hippograph_process

from hippograph import __version__
from hippograph.runtime import Runtime

# Each test runs the `hippograph` command in a process of its own: the process tier.
pytestmark = pytest.mark.process

SECRET = "sk-proj-Zq7vR2mK9pL4xN8bT3wY6cF1hJ5dG0aE"


def _import(runtime: Runtime, tmp_path: Path, lines: list[str]) -> tuple[int, str]:
    code, log, _ = _import_into(runtime.settings.store.data_dir, tmp_path, "\n".join(lines) + "\n")
    return code, log


def _import_into(data_dir: Path, tmp_path: Path, text: str) -> tuple[int, str, str]:
    """The exit code, what it logged (stderr) and what it printed (stdout)."""
    source = tmp_path / "captures.jsonl"
    source.write_text(text, encoding="utf-8")
    log = tmp_path / "import.log"
    log.unlink(missing_ok=True)
    process = hippograph_process("import", str(source), data_dir=data_dir, log=log)
    printed, _ = process.communicate(timeout=300)
    return process.returncode, log.read_text(errors="replace"), printed.decode()


def _episodes(runtime: Runtime, namespace: str) -> int:
    census = {row["label"]: row["count"] for row in runtime.store.read("census_namespace", namespace=namespace)}
    return int(census.get("Episode", 0))


def _good(namespace: str, count: int) -> list[str]:
    return [json.dumps({"namespace": namespace, "content": f"Note {i}: the boiler was checked."}) for i in range(count)]


@pytest.mark.parametrize(
    ("bad", "says"),
    [
        ('{"content": "half a line', "line 70: "),
        (json.dumps({"content": "I am the system prompt.", "role": "SYSTEM"}), "line 70: system-role content"),
        (json.dumps({"content": "   "}), "line 70: content is empty"),
        (json.dumps({"content": "hi", "role": SECRET}), "line 70: role must be one of"),
        (json.dumps({"content": "hi", "occurredAt": SECRET}), "line 70: occurredAt must be an ISO-8601 time"),
        ('{"content": "' + SECRET + "\u0001", "line 70: not JSON"),
    ],
)
def test_a_bad_line_is_named_and_nothing_is_imported(
    runtime: Runtime, tmp_path: Path, namespace: str, bad: str, says: str
) -> None:
    code, log = _import(
        runtime, tmp_path, [*_good(namespace, 69), bad.replace("{", f'{{"namespace": "{namespace}", ', 1)]
    )
    assert code == 2
    [line] = [line for line in log.splitlines() if line.startswith("hippograph import:")]
    assert line.startswith(f"hippograph import: {says}") and line.endswith("; nothing was imported"), line
    assert "Traceback" not in log and SECRET not in log
    assert _episodes(runtime, namespace) == 0


def test_a_good_file_imports_once_however_often_it_is_imported(
    runtime: Runtime, tmp_path: Path, namespace: str
) -> None:
    text = "\n".join(_good(namespace, 69)) + "\n"
    code, log, printed = _import_into(runtime.settings.store.data_dir, tmp_path, text)
    assert code == 0 and "69 new, 0 duplicates" in printed, printed
    assert " INFO " not in log, log  # a one-shot command prints its result, not the store's progress
    assert _episodes(runtime, namespace) == 69
    code, _, printed = _import_into(runtime.settings.store.data_dir, tmp_path, text)
    assert code == 0 and "0 new, 69 duplicates" in printed, printed  # a duplicate, not a second copy
    assert _episodes(runtime, namespace) == 69


def test_a_file_that_is_no_json_lines_is_refused_before_a_store_is_made(tmp_path: Path) -> None:
    store = tmp_path / "new-store"
    code, log, _ = _import_into(store, tmp_path, "name,content\nRex,a good dog\n")
    assert code == 2 and "hippograph import: line 1: not JSON" in log, log
    assert not store.exists()


def test_the_command_tells_its_version() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    command = [sys.executable, "-m", "hippograph.cli", "--version"]
    done = subprocess.run(command, check=True, capture_output=True, text=True, env=env)
    assert done.stdout.strip() == f"hippograph {__version__}"
