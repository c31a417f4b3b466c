"""Concurrent writers never see a transient conflict: they collide on the namespace's counter, its
sessions and the episode pages, and the store resolves that among them (store/retry.py)."""

from __future__ import annotations

import logging
import threading
from collections import Counter
from typing import Any

import httpx
import neo4j
import pytest
from support.asgi import InProcess
from support.capturing import capturing
from support.census import census
from support.client import GraphQLClient
from support.statements import bolt_driver
from support.threads import run_side_by_side

from hippograph.capture.service import capture
from hippograph.kernel.errors import ErrorCode, HippographError
from hippograph.kernel.model import CaptureInput
from hippograph.runtime import Runtime
from hippograph.store import store as store_module
from hippograph.store.retry import RetryPolicy, is_transient, with_retries
from hippograph.store.store import Store

THREADS = 24
ROUNDS = 6
BATCH = 5
SESSIONS = 3


def _conflict() -> neo4j.exceptions.Neo4jError:
    # What ArcadeDB's Bolt plugin sends for a concurrent change to the same page or record.
    return neo4j.exceptions.Neo4jError._hydrate_neo4j(
        code="Neo.TransientError.Transaction.DeadlockDetected",
        message="Slot rebase not possible on page PageId(hippograph/22/3) slot 0 (concurrent change to the same record)",
    )


@pytest.mark.slow  # 24 clients' rounds of captures, batches and recalls: the longest API test
def test_many_clients_writing_one_new_namespace_all_succeed_and_every_id_is_readable(
    app: InProcess, admin_secret: str, gql: GraphQLClient, runtime: Runtime, namespace: str
) -> None:
    # Every thread starts at once on a namespace and sessions nobody has created yet: they all
    # race to create the same counter and session nodes, then keep appending episodes.
    start = threading.Barrier(THREADS)
    acknowledged: list[str] = []
    errors: Counter[str] = Counter()
    lock = threading.Lock()

    def client(number: int) -> None:
        own = app.graphql(admin_secret)
        start.wait()
        try:
            rounds(own, number)
        except httpx.HTTPError as error:  # a request that never got an answer is an error too
            with lock:
                errors[type(error).__name__] += 1

    def rounds(own: GraphQLClient, number: int) -> None:
        for round_ in range(ROUNDS):
            inputs = [_input(namespace, number, round_, k) for k in range(BATCH if round_ % 2 else 1)]
            if round_ % 3 == 2:
                body = own.operation("recall", input={"namespace": namespace, "query": "the garden", "limit": 5})
                ids: list[str] = []
            elif len(inputs) == 1:
                body = own.operation("capture", input=inputs[0])
                ids = [body["data"]["capture"]["id"]] if not body.get("errors") else []
            else:
                body = own.operation("captureBatch", inputs=inputs)
                ids = [r["id"] for r in body["data"]["captureBatch"]] if not body.get("errors") else []
            with lock:
                errors.update(e.get("extensions", {}).get("code", "?") for e in body.get("errors", []))
                acknowledged.extend(ids)

    run_side_by_side(THREADS, client)

    assert errors == Counter()
    for episode_id in set(acknowledged):
        memory = gql.data("memory", id=episode_id, namespace=namespace)["memory"]
        assert memory is not None and memory["id"] == episode_id
    # Each thread shares half its contents with its neighbour: those are one episode each.
    distinct = len(set(acknowledged))
    assert census(runtime, namespace)["Episode"] == distinct
    [count] = runtime.store.read("namespace_episode_count", namespace=namespace)
    assert count["episodes"] == distinct


def _input(namespace: str, number: int, round_: int, k: int) -> dict[str, Any]:
    # Odd k: the same text as the neighbouring thread's (a corroboration, or a race on its key).
    owner = number - number % 2 if k % 2 else number
    return {
        "namespace": namespace,
        "content": f"Client {owner} tended the garden in round {round_}, note {k}.",
        "agent": f"agent-{number}",
        "session": f"session-{number % SESSIONS}",
    }


def test_conflicts_arrive_as_transient_and_query_faults_do_not() -> None:
    assert is_transient(_conflict())
    timed_out = neo4j.exceptions.Neo4jError._hydrate_neo4j(
        code="Neo.ClientError.Transaction.TransactionTimedOut", message="query timed out"
    )
    assert not is_transient(timed_out)
    assert is_transient(timed_out, frozenset({"Neo.ClientError.Transaction.TransactionTimedOut"}))


def test_a_conflict_is_retried_until_it_clears() -> None:
    calls = iter([_conflict(), _conflict(), "done"])

    def attempt() -> str:
        outcome = next(calls)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    assert with_retries(attempt, policy=RetryPolicy(attempts=3, first_delay_s=0.001)) == "done"


def test_conflicts_that_do_not_clear_end_as_store_unavailable() -> None:
    def attempt() -> None:
        raise _conflict()

    with pytest.raises(HippographError) as raised:
        with_retries(attempt, policy=RetryPolicy(attempts=3, first_delay_s=0.001))
    assert raised.value.code is ErrorCode.STORE_UNAVAILABLE


def test_a_pool_with_no_connection_to_give_is_store_unavailable(runtime: Runtime, namespace: str) -> None:
    # A pool of one whose connection another holder keeps: the driver gives up waiting for it.
    driver, database = bolt_driver(runtime.settings, max_connection_pool_size=1, connection_acquisition_timeout=0.2)
    store = Store(driver, database, runtime.store.dialect, attached=True)
    try:
        with driver.session(database=database) as holder:
            holder.begin_transaction()
            with pytest.raises(HippographError) as raised:
                store.read("namespace_episode_count", namespace=namespace)
        assert raised.value.code is ErrorCode.STORE_UNAVAILABLE
        # The connection back in the pool, the same read answers.
        assert store.read("namespace_episode_count", namespace=namespace) == [{"episodes": 0}]
    finally:
        driver.close()


def test_a_slow_statement_and_a_slow_connection_are_named_in_the_log(
    runtime: Runtime, namespace: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # Every statement is slow against a bound of 0 s: the log names the query and the wait.
    monkeypatch.setattr(store_module, "SLOW_S", 0.0)
    with caplog.at_level(logging.WARNING, logger=store_module.__name__):
        runtime.store.read_in(lambda tx: tx.run("namespace_episode_count", namespace=namespace))
    messages = [record.getMessage() for record in caplog.records]
    assert any(m.startswith("store: statement namespace_episode_count took ") for m in messages)
    assert any(m.startswith("store: waited ") and m.endswith(" s for a connection") for m in messages)


@pytest.mark.slow  # 240 captures from 24 threads
def test_writers_with_no_gate_before_them_all_commit_into_one_namespace(runtime: Runtime, namespace: str) -> None:
    # Without the API's admission of writes: 24 captures at a time, each updating the same
    # namespace counter, vector number and change stream, and one of three session tails. On Neo4j
    # each of those read-and-write statements takes its lock first; before, they deadlocked until
    # retries ran out.
    parts = (runtime.embedder, *capturing(runtime))
    created: list[str] = []
    failures: list[BaseException] = []

    def writer(number: int) -> None:
        for round_ in range(10):
            turn = CaptureInput(f"Writer {number} planted row {round_}.", namespace=namespace, session=f"s{number % 3}")
            try:
                [outcome] = capture(runtime.store, *parts, [turn])
            except HippographError as error:
                failures.append(error)
                continue
            created.append(outcome.id)

    run_side_by_side(THREADS, writer)

    assert failures == []
    assert len(set(created)) == THREADS * 10
    assert census(runtime, namespace)["Episode"] == THREADS * 10
    [count] = runtime.store.read("namespace_episode_count", namespace=namespace)
    assert count["episodes"] == THREADS * 10
