"""Kill a consolidation process mid-pass, run it again, and find every episode consolidated exactly
once and the same graph derived as by a run that was never interrupted: the dead process's leases
run out, since nothing renews them, the rerun takes them over, and what is derived does not depend
on the order episodes came in.

The interrupted store is a data directory of its own, opened by processes that are killed and
started again, as a user's would be. The reference, a run never interrupted, is the same captures in
another namespace of the suite's store, consolidated in this process (on Neo4j both are namespaces
of one database anyway)."""

from __future__ import annotations

import json
import re
import signal
import time
from pathlib import Path

import pytest
from support.client import GraphQLClient
from support.processes import hippograph_process

from hippograph.consolidation.canonical import differences, dump
from hippograph.consolidation.worker import consolidate
from hippograph.runtime import Runtime

PEOPLE = ["Amara Okafor", "Bruno Silva", "Chen Wei", "Dana Lee", "Elif Demir", "Farah Khan"]
PLACES = ["Lisbon", "Nairobi", "Osaka", "Toronto", "Valparaiso"]
COMPANIES = ["Acme Robotics", "Globex", "Initech", "Umbrella Health"]
EPISODES = 100
# One derive process for the consolidation that is killed, not the default two: each loads the
# models, and one holds a batch leased ahead all the same, so the kill still finds leases to take
# back. The rerun derives in its own process, which loads the embedding model for entity
# resolution anyway (and the reference, derived by the suite's pool, checks that both derive alike).
ONE_DERIVE_PROCESS = {"HIPPOGRAPH_CONSOLIDATION_PROCESSES": "1"}
NO_DERIVE_PROCESS = {"HIPPOGRAPH_CONSOLIDATION_PROCESSES": "0"}
LEASE_S = 5

pytestmark = pytest.mark.process


def captures(namespace: str) -> list[dict[str, str]]:
    lines = []
    for i in range(EPISODES):
        person = PEOPLE[i % len(PEOPLE)]
        place, company = PLACES[i % len(PLACES)], COMPANIES[i % len(COMPANIES)]
        text = [
            f"{person}: I moved to {place} in spring, round {i}.",
            f"{person}: I started working at {company} this week, note {i}.",
            f"{person}: {PEOPLE[(i + 1) % len(PEOPLE)]} and I visited {place} again ({i}).",
        ][i % 3]
        day = 1 + i % 28
        lines.append(
            {
                "namespace": namespace,
                "content": text,
                "agent": person,
                "session": f"s{i // 20}",
                "occurredAt": f"2023-{1 + i // 28 % 12:02d}-{day:02d}T12:00:00+00:00",
            }
        )
    return lines


def run(*args: str, data_dir: Path, log: Path, env: dict[str, str] | None = None) -> str:
    process = hippograph_process(*args, data_dir=data_dir, log=log, env=env)
    out, _ = process.communicate(timeout=600)
    assert process.returncode == 0, log.read_text()[-3000:]
    return out.decode()


def census(data_dir: Path, namespace: str, log: Path) -> dict:
    report = json.loads(run("status", "--namespace", namespace, data_dir=data_dir, log=log))
    return {key: report[key] for key in ("raw", "leased", "consolidated", "failed")}


def graph(data_dir: Path, namespace: str, log: Path) -> dict:
    return json.loads(run("dump", "--namespace", namespace, data_dir=data_dir, log=log))


def test_a_killed_consolidation_resumes_to_the_same_graph(
    tmp_path: Path, namespace: str, gql: GraphQLClient, runtime: Runtime
) -> None:
    log = tmp_path / "hippograph.log"
    interrupted, reference_namespace = tmp_path / "interrupted", namespace + "-reference"
    captured = tmp_path / "captures.jsonl"
    captured.write_text("".join(json.dumps(c) + "\n" for c in captures(namespace)), encoding="utf-8")
    run("import", str(captured), data_dir=interrupted, log=log)
    reference = captures(reference_namespace)
    for start in range(0, EPISODES, 32):
        gql.data("captureBatch", inputs=reference[start : start + 32])
    assert consolidate(runtime, namespace=reference_namespace).processed == EPISODES

    # A short lease, which the killed process's heartbeat keeps while it runs. Smaller batches than
    # the reference's, so that the kill finds several leased ahead.
    kill_log = tmp_path / "killed.log"
    process = hippograph_process(
        "consolidate",
        "--namespace",
        namespace,
        data_dir=interrupted,
        log=kill_log,
        env={
            "HIPPOGRAPH_CONSOLIDATION_BATCH": "16",
            "HIPPOGRAPH_CONSOLIDATION_LEASE_S": str(LEASE_S),
            **ONE_DERIVE_PROCESS,
        },
    )
    deadline = time.monotonic() + 300
    while not re.search(r"\b([1-9]\d*)/\d+", kill_log.read_text(errors="replace")):
        assert process.poll() is None, "consolidation ended before it could be interrupted"
        assert time.monotonic() < deadline, "consolidation made no progress"
        time.sleep(0.2)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)

    partial = census(interrupted, namespace, log)
    assert 0 < partial["consolidated"] < EPISODES and partial["leased"] > 0
    time.sleep(LEASE_S)  # no heartbeat now: the dead process's leases run out

    run("consolidate", "--namespace", namespace, data_dir=interrupted, log=log, env=NO_DERIVE_PROCESS)
    assert census(interrupted, namespace, log) == {"raw": 0, "leased": 0, "consolidated": EPISODES, "failed": 0}
    resumed = graph(interrupted, namespace, log)
    # As the command prints it: its times are strings.
    expected = json.loads(json.dumps(dump(runtime.store, reference_namespace), default=str))
    assert differences(resumed, expected) == []
    assert expected["relationships"]["SUPERSEDES"] > 0 and expected["relationships"]["WORKS_AT"] > 0
