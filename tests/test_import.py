"""`hippograph import`: a bad line is named by its number, and a file with one writes nothing.

The command runs in its own process beside the suite's store, as a user runs it beside a server: it
reaches the store through the engine this process holds (over Bolt) instead of starting one of its
own, so each import costs a process, not a process and an engine. An import into a store of its own
is test_crash_safety's first step."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.processes import hippograph_process

from hippograph.runtime import Runtime

SECRET = "sk-proj-Zq7vR2mK9pL4xN8bT3wY6cF1hJ5dG0aE"


def _import(runtime: Runtime, tmp_path: Path, lines: list[str]) -> tuple[int, str]:
    source = tmp_path / "captures.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    log = tmp_path / "import.log"
    process = hippograph_process("import", str(source), data_dir=runtime.settings.store.data_dir, log=log)
    process.communicate(timeout=300)
    return process.returncode, log.read_text(errors="replace")


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
    lines = _good(namespace, 69)
    assert _import(runtime, tmp_path, lines)[0] == 0
    assert _episodes(runtime, namespace) == 69
    assert _import(runtime, tmp_path, lines)[0] == 0  # what is stored already is a duplicate, not a second copy
    assert _episodes(runtime, namespace) == 69
