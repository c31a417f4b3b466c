"""Consolidation's workers: lease owners are unique, the leases of dead ones are taken back, the
process pool is made once, and a derive result that does not match its batch fails loudly instead
of dropping episodes."""

from __future__ import annotations

import dataclasses
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest
from support.client import GraphQLClient
from support.operations import capture_turns
from ulid import ULID

from hippograph.consolidation import worker
from hippograph.consolidation.leases import parse_owner, reclaim_dead_leases, worker_name
from hippograph.consolidation.worker import _derive, consolidate
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


def test_leases_of_dead_workers_on_this_host_are_taken_back(
    gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    turns = [
        ("Dana", f"Dana: I moved to Lisbon in spring, round {i}.", f"2023-0{1 + i}-01T10:00:00Z") for i in range(5)
    ]
    capture_turns(gql, namespace, turns, session="s1")
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    host = socket.gethostname()
    owners = {
        "alive": worker_name(),  # this process
        "elsewhere": f"another-host:{ended.pid}:1:{ULID()}",  # cannot be checked from here
        "dead": f"{host}:{ended.pid}:1:{ULID()}",
        "dead, older name": f"{host}:{ended.pid}:{ULID()}",
        "pid reused": f"{host}:{os.getpid()}:1:{ULID()}",  # this pid, another start time
    }
    for owner in owners.values():
        assert len(worker._lease(runtime, namespace, 1, owner)) == 1
    assert parse_owner(owners["dead"]) is not None and parse_owner("a name we never wrote") is None

    assert reclaim_dead_leases(runtime.store, namespace) == 3
    assert gql.data("status", namespace=namespace)["status"]["leased"] == 2
    report = consolidate(runtime, namespace=namespace)
    assert (report.processed, report.remaining) == (3, 2)  # the live and the unknown owner keep theirs


def test_a_killed_worker_process_fails_no_episode(
    gql: GraphQLClient, namespace: str, runtime: Runtime, caplog: pytest.LogCaptureFixture
) -> None:
    turns = [
        ("Dana", f"Dana: I moved to Lisbon in spring, round {i}.", f"2023-0{1 + i}-01T10:00:00Z") for i in range(4)
    ]
    capture_turns(gql, namespace, turns, session="s1")
    # A pool of its own, so its one process is still loading the models when it is killed: the
    # batch it was given is in flight, whatever ran before this test.
    pool = DerivePool(1, 8, 1)
    killing = dataclasses.replace(runtime, derive_pool=pool)
    reports: list[worker.ConsolidationReport] = []
    drain = threading.Thread(target=lambda: reports.append(consolidate(killing, namespace=namespace)))
    try:
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
        pool.close()
        killing.query_threads.shutdown()
    assert (reports[0].processed, reports[0].failed, reports[0].remaining) == (len(turns), 0, 0)
    assert "worker process died" in caplog.text  # the kill landed on a batch in flight
    status = gql.data("status", namespace=namespace)["status"]
    assert (status["consolidated"], status["failed"]) == (len(turns), 0)
