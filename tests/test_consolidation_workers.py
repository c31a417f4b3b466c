"""Consolidation's workers: lease owners are random and unique, two workers never lease one
episode, a heartbeat keeps a lease and a lease no one renews is taken over once it has run out,
the process pool is made once, and a derive result that does not match its batch fails loudly
instead of dropping episodes."""

from __future__ import annotations

import dataclasses
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Iterator
from datetime import timedelta

import pytest
from support.client import GraphQLClient
from support.operations import capture_turns
from support.processes import eventually

from hippograph.consolidation.leases import heartbeat, lease, worker_name
from hippograph.consolidation.worker import ConsolidationReport, _derive, consolidate
from hippograph.extraction.derive import Derived, DerivePool
from hippograph.extraction.model import Extraction
from hippograph.runtime import Runtime


def test_every_worker_name_is_unique() -> None:
    assert len({worker_name() for _ in range(1000)}) == 1000


@pytest.fixture
def busy_switching() -> Iterator[None]:
    """Threads switch as often as the interpreter allows, so a race shows itself."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(before)


def test_concurrent_drains_make_one_process_pool(busy_switching: None) -> None:
    for _ in range(20):
        pool = DerivePool(1, 8, 1)
        start = threading.Barrier(8)
        made = []

        def drain(start: threading.Barrier = start, made: list[object] = made, pool: DerivePool = pool) -> None:
            start.wait()
            made.append(pool._pool())

        threads = [threading.Thread(target=drain) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        pool.close()
        assert len({id(executor) for executor in made}) == 1


def test_a_derive_result_shorter_than_its_batch_is_an_error(runtime: Runtime, namespace: str) -> None:
    batch = [
        {"id": f"e{i}", "namespace": namespace, "content": f"Dana met Omar {i}.", "occurred_at": None} for i in range(2)
    ]
    derived = [Derived(Extraction(mentions=(), relations=(), facts=(), sentences=()), ())]
    with pytest.raises(ValueError):
        _derive(runtime, batch, derived)


def moves(count: int) -> list[tuple[str, str, str]]:
    return [
        ("Dana", f"Dana: I moved to Lisbon in spring, round {i}.", f"2023-01-{1 + i:02d}T10:00:00Z")
        for i in range(count)
    ]


def test_owners_are_random_not_where_they_run() -> None:
    name = worker_name()
    assert socket.gethostname() not in name and str(os.getpid()) not in name.split(":")


def test_workers_racing_for_leases_never_share_an_episode(gql: GraphQLClient, namespace: str, runtime: Runtime) -> None:
    capture_turns(gql, namespace, moves(24), session="s1")
    start = threading.Barrier(4)
    taken: dict[str, list[str]] = {}

    def work(owner: str) -> None:
        start.wait()
        mine = taken.setdefault(owner, [])
        while True:
            batch, candidates = lease(runtime.store, namespace, 3, owner, runtime.clock(), 60)
            mine.extend(row["id"] for row in batch)
            if not candidates:
                return

    threads = [threading.Thread(target=work, args=(worker_name(),)) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    every = [episode for ids in taken.values() for episode in ids]
    assert len(every) == 24 and len(set(every)) == 24
    assert gql.data("status", namespace=namespace)["status"]["leased"] == 24


def test_a_lease_no_one_renews_is_taken_over_once_it_ran_out(
    gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    capture_turns(gql, namespace, moves(4), session="s1")
    dead, alive, late = worker_name(), worker_name(), worker_name()
    past = runtime.clock() - timedelta(minutes=5)
    held, _ = lease(runtime.store, namespace, 2, alive, runtime.clock(), 60)
    lost, _ = lease(runtime.store, namespace, 2, dead, past, 60)  # ran out four minutes ago
    assert len(held) == len(lost) == 2 and not {row["id"] for row in held} & {row["id"] for row in lost}
    retaken, candidates = lease(runtime.store, namespace, 4, late, runtime.clock(), 60)
    assert {row["id"] for row in retaken} == {row["id"] for row in lost} and candidates
    assert [row["attempts"] for row in retaken] == [2, 2]  # the dead worker's try counts


def test_a_heartbeat_keeps_a_lease_past_its_period(gql: GraphQLClient, namespace: str, runtime: Runtime) -> None:
    capture_turns(gql, namespace, moves(2), session="s1")
    holder, other = worker_name(), worker_name()
    period = 3.0
    with heartbeat(runtime.store, holder, period, runtime.clock):
        held, _ = lease(runtime.store, namespace, 2, holder, runtime.clock(), period)
        assert len(held) == 2
        time.sleep(2 * period)  # two periods: without the heartbeat, the lease would have run out
        assert lease(runtime.store, namespace, 2, other, runtime.clock(), 60) == ([], False)
    time.sleep(period + 0.5)
    taken, _ = lease(runtime.store, namespace, 2, other, runtime.clock(), 60)
    assert {row["id"] for row in taken} == {row["id"] for row in held}
    report = consolidate(runtime, namespace=namespace)
    assert (report.processed, report.remaining) == (0, 2)  # the other worker holds them now


@pytest.mark.process
def test_a_killed_worker_process_fails_no_episode(
    gql: GraphQLClient, namespace: str, runtime: Runtime, caplog: pytest.LogCaptureFixture
) -> None:
    turns = [
        ("Dana", f"Dana: I moved to Lisbon in spring, round {i}.", f"2023-0{1 + i}-01T10:00:00Z") for i in range(4)
    ]
    capture_turns(gql, namespace, turns, session="s1")
    # A pool of its own, its one process loaded first: until it is, a drain derives in its own
    # process (derive.py), and the kill would hit no batch.
    pool = DerivePool(1, 8, 1)
    killing = dataclasses.replace(runtime, derive_pool=pool)
    reports: list[ConsolidationReport] = []
    drain = threading.Thread(target=lambda: reports.append(consolidate(killing, namespace=namespace)))
    try:
        eventually(pool.warm_up, within_s=600)
        drain.start()
        victims: list[int] = []
        while not victims and drain.is_alive():
            executor = pool._executor
            victims = list(getattr(executor, "_processes", None) or ())
            time.sleep(0.01)
        assert victims, "the pool never started a process"
        os.kill(victims[0], signal.SIGKILL)
        drain.join(timeout=600)
    finally:
        pool.close()  # the recall threads are the suite's runtime's: they stay
    assert (reports[0].processed, reports[0].failed, reports[0].remaining) == (len(turns), 0, 0)
    assert "worker process died" in caplog.text  # the kill landed on the batch or just before it
    status = gql.data("status", namespace=namespace)["status"]
    assert (status["consolidated"], status["failed"]) == (len(turns), 0)
