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
from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest
from support.client import GraphQLClient
from support.failing import ShortExtractor
from support.operations import capture_turns
from support.processes import eventually

from hippograph.consolidation.leases import heartbeat, lease, worker_name
from hippograph.consolidation.worker import ConsolidationReport, consolidate
from hippograph.extraction.derive import DerivePool
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


@pytest.mark.process
def test_concurrent_drains_make_one_process_pool(busy_switching: None) -> None:
    # A pool of one process: had two drains each made one, their tasks would run in two.
    for _ in range(20):
        pool = DerivePool(1, 8, 1)
        start = threading.Barrier(8)
        pids: list[int] = []

        def drain(start: threading.Barrier = start, pids: list[int] = pids, pool: DerivePool = pool) -> None:
            start.wait()
            pids.append(pool.call(os.getpid).result(timeout=600))

        threads = [threading.Thread(target=drain) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        pool.close()
        assert len(pids) == 8 and len(set(pids)) == 1


def test_a_derive_result_shorter_than_its_batch_fails_the_batch(
    gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    capture_turns(gql, namespace, moves(2), session="s1")
    settings = runtime.settings.with_overrides(consolidation_max_attempts=1)
    short = dataclasses.replace(runtime, settings=settings, extractor=ShortExtractor(), derive_pool=None)
    report = consolidate(short, namespace=namespace, limit=2)
    # Neither episode is dropped or committed without its derivation: both go to the dead letter.
    assert (report.processed, report.failed) == (0, 2)
    status = gql.data("status", namespace=namespace)["status"]
    assert (status["consolidated"], status["failed"]) == (0, 2)


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


class ReadClock:
    """A clock the test moves by hand, counting how often it has been read."""

    def __init__(self, now: datetime) -> None:
        self._lock = threading.Lock()
        self._now = now
        self._reads = 0

    def __call__(self) -> datetime:
        with self._lock:
            self._reads += 1
            return self._now

    def advance(self, seconds: float) -> int:
        """Moves the time on; returns the reads so far, each of which saw the earlier time."""
        with self._lock:
            self._now += timedelta(seconds=seconds)
            return self._reads

    @property
    def reads(self) -> int:
        with self._lock:
            return self._reads

    @property
    def now(self) -> datetime:
        with self._lock:
            return self._now


def test_a_heartbeat_keeps_a_lease_past_its_period(gql: GraphQLClient, namespace: str, runtime: Runtime) -> None:
    capture_turns(gql, namespace, moves(2), session="s1")
    holder, other = worker_name(), worker_name()
    # The leases' time is the test's clock; the heartbeat beats every third of the period in real time.
    period, clock = 0.3, ReadClock(runtime.clock())
    with heartbeat(runtime.store, holder, period, clock):
        held, _ = lease(runtime.store, namespace, 2, holder, clock.now, period)
        assert len(held) == 2
        before = clock.advance(2 * period)  # without a renewal since, the lease would have run out
        # A beat read the new time and renewed; the beat after it reads the clock once that is done.
        eventually(lambda: clock.reads >= before + 2, within_s=120)
        assert lease(runtime.store, namespace, 2, other, clock.now, 60) == ([], False)
    # No heartbeat now: the last renewal runs out within the period.
    taken, _ = lease(runtime.store, namespace, 2, other, clock.now + timedelta(seconds=1.5 * period), 60)
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
        victim = pool.call(os.getpid).result(timeout=600)
        drain.start()
        os.kill(victim, signal.SIGKILL)
        drain.join(timeout=600)
    finally:
        pool.close()  # the recall threads are the suite's runtime's: they stay
    assert (reports[0].processed, reports[0].failed, reports[0].remaining) == (len(turns), 0, 0)
    assert "worker process died" in caplog.text  # the kill landed on the batch or just before it
    status = gql.data("status", namespace=namespace)["status"]
    assert (status["consolidated"], status["failed"]) == (len(turns), 0)
