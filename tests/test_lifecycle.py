"""Decay and lifecycle states under a controllable clock, pinning, sweeps and stats."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from support.client import GraphQLClient
from support.operations import TURNS, assert_tombstones_only, fact, forget, history, listed, remember
from support.processes import hippograph_process

from hippograph.runtime import Runtime

Clock = Callable[[int], None]


@pytest.fixture
def travel(runtime: Runtime, monkeypatch: pytest.MonkeyPatch) -> Clock:
    """Move the service's clock (shared with the suite's app) forward by whole days."""
    start = runtime.clock()

    def to(days: int) -> None:
        when: datetime = start + timedelta(days=days)
        monkeypatch.setattr(runtime, "clock", lambda: when)

    return to


def counts(stats: dict, field: str) -> dict[str, int]:
    return {row["name"]: row["count"] for row in stats[field]}


def test_retention_moves_a_fact_through_the_lifecycle_states(gql: GraphQLClient, namespace: str, travel: Clock) -> None:
    status = remember(gql, namespace, "The build is red.", kind="STATUS", subject="build")["fact"]  # S = 30 days
    decision = remember(gql, namespace, "We chose Postgres.", kind="DECISION")["fact"]
    pinned = remember(gql, namespace, "The release is frozen.", kind="STATUS", subject="release")["fact"]
    gql.data("pin", namespace=namespace, id=pinned["id"], reason="until the audit")

    travel(40)  # exp(-40/30) = 0.26
    now = fact(gql, namespace, status["id"])
    assert now["lifecycle"] == "STALE" and now["retention"] == pytest.approx(0.2636, abs=1e-3)
    travel(70)  # exp(-70/30) = 0.097
    assert fact(gql, namespace, status["id"])["lifecycle"] == "ARCHIVED"
    assert fact(gql, namespace, decision["id"])["retention"] == 1.0  # decisions never decay
    held = fact(gql, namespace, pinned["id"])
    assert (held["retention"], held["lifecycle"], held["pinned"]) == (1.0, "ACTIVE", True)

    stats = gql.data("stats", namespace=namespace)["stats"]
    assert counts(stats, "lifecycle") == {"active": 2, "archived": 1}
    assert counts(stats, "kinds") == {"decision": 1, "status": 2}
    assert stats["factsBelowHalfRetention"] == 1

    unpinned = gql.data("unpin", namespace=namespace, id=pinned["id"])["unpin"]
    assert unpinned["pinned"] is False and unpinned["lifecycle"] == "ARCHIVED"
    assert [e["event"] for e in history(gql, namespace, pinned["id"])] == ["created", "pinned", "unpinned"]
    assert history(gql, namespace, pinned["id"])[1]["reason"] == "until the audit"


def test_event_ttl_forgets_only_unaccessed_ordinary_old_events(
    gql: GraphQLClient, namespace: str, travel: Clock
) -> None:
    ordinary = remember(gql, namespace, "Dana flew to Oslo.", kind="EVENT")["fact"]
    important = remember(gql, namespace, "Dana signed the lease.", kind="EVENT", importance=0.9)["fact"]
    pinned = remember(gql, namespace, "Dana met the mayor.", kind="EVENT")["fact"]
    gql.data("pin", namespace=namespace, id=pinned["id"])
    recalled = remember(gql, namespace, "Dana ran a marathon.", kind="EVENT")["fact"]
    hits = gql.data("recall", input={"namespace": namespace, "query": "marathon"})["recall"]["hits"]
    assert [h["memory"]["id"] for h in hits] == [recalled["id"]]  # recall counts an access

    travel(29)
    assert gql.data("sweep", namespace=namespace)["sweep"]["expiredEvents"] == 0
    travel(31)
    assert gql.data("sweep", namespace=namespace)["sweep"]["expiredEvents"] == 1
    assert fact(gql, namespace, ordinary["id"])["forgottenAt"] is not None
    assert listed(gql, namespace) == {important["id"], pinned["id"], recalled["id"]}
    assert history(gql, namespace, ordinary["id"])[-1]["actor"] == "sweeper"


def test_the_sweeper_erases_what_was_forgotten_past_the_window(
    gql: GraphQLClient, namespace: str, travel: Clock
) -> None:
    episodes = [
        r["id"]
        for r in gql.data(
            "captureBatch", inputs=[{"namespace": namespace, "content": text, "agent": a} for a, text, _ in TURNS]
        )["captureBatch"]
    ]
    forget(gql, namespace, ids=episodes[:1], mode="EXECUTE", reason="outdated")
    travel(29)
    assert gql.data("sweep", namespace=namespace)["sweep"]["erased"] == 0
    travel(31)
    assert gql.data("sweep", namespace=namespace)["sweep"]["erased"] == 1
    assert gql.error_code("memory", namespace=namespace, id=episodes[0]) == "NOT_FOUND"
    assert_tombstones_only(gql, namespace, episodes[0])
    assert listed(gql, namespace) == set(episodes[1:])


def test_history_is_kept_for_180_days(gql: GraphQLClient, namespace: str, travel: Clock) -> None:
    kept = remember(gql, namespace, "The door code changes monthly.", kind="PROCEDURE", key="door")["fact"]
    travel(179)
    assert gql.data("sweep", namespace=namespace)["sweep"]["historyPurged"] == 0
    travel(181)
    assert gql.data("sweep", namespace=namespace)["sweep"]["historyPurged"] == 1
    assert history(gql, namespace, kept["id"]) == []
    assert fact(gql, namespace, kept["id"])["id"] == kept["id"]  # the memory itself stays


def test_pin_refuses_what_it_cannot_find(gql: GraphQLClient, namespace: str) -> None:
    assert gql.error_code("pin", namespace=namespace, id="01NOPE") == "NOT_FOUND"
    gone = remember(gql, namespace, "Temporary.", key="tmp")["fact"]
    forget(gql, namespace, ids=[gone["id"]], mode="EXECUTE", reason="done")
    assert gql.error_code("pin", namespace=namespace, id=gone["id"]) == "BAD_INPUT"


@pytest.mark.process
def test_hippograph_sweep_runs_from_the_command_line(tmp_path: Path, namespace: str) -> None:
    # One namespace: on Neo4j the suite's other tests share the store, and sweep their own.
    process = hippograph_process(
        "sweep", "--namespace", namespace, data_dir=tmp_path / "data", log=tmp_path / "sweep.log"
    )
    out, _ = process.communicate(timeout=300)
    assert process.returncode == 0, (tmp_path / "sweep.log").read_text()
    assert json.loads(out) == {"erased": 0, "expired_events": 0, "history_purged": 0}
