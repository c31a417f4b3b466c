"""Requests before background work (priority.py, docs/operations.md): the gate hands turns out by
priority and ages waiters so none starves, a recall's query is embedded without waiting for
captures' texts and its access counts are written after it answered, serve's consolidation
pauses while requests are in flight (and not for ever), and captures' embedding passes run at a
lower OS priority (consolidation's worker processes too: test_consolidation)."""

from __future__ import annotations

import os
import sys
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import pytest
from prometheus_client import REGISTRY
from support.asgi import InProcess
from support.client import GraphQLClient
from support.operations import capture_turns

from hippograph.consolidation.worker import drain, remaining
from hippograph.embedding import MiniLMEmbedder, onnx_cache
from hippograph.kernel.priority import Priority, PriorityGate, RequestGauge, lower_thread_priority
from hippograph.runtime import Runtime

# On Neo4j writers do not take turns: the server locks records (store/dialect.py, single_writer), so
# there is no writer gate to hold; tests/test_dialect.py shows two writers of one record queue on
# its lock and a writer of another record commits meanwhile.
_TURNS = pytest.mark.skipif(bool(os.environ.get("NEO4J_URI")), reason="Neo4j has no writer gate: record locks instead")

POLL_S = 0.001
# How long a state the test waits for may take to come about: long, for a loaded machine. A test
# that holds waits that long only when it is about to fail.
WITHIN_S = 120.0


def _until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WITHIN_S
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        threading.Event().wait(POLL_S)


def _in_thread(fn: Callable[[], Any]) -> Future[Any]:
    future: Future[Any] = Future()

    def run() -> None:
        try:
            future.set_result(fn())
        except BaseException as error:  # noqa: BLE001 - handed to the test through the future
            future.set_exception(error)

    threading.Thread(target=run, daemon=True).start()
    return future


def _queue(gate: PriorityGate, priority: Priority, name: str, order: list[str]) -> Future[None]:
    def take() -> None:
        with gate.turn(priority):
            order.append(name)

    return _in_thread(take)


def test_a_free_turn_goes_to_the_most_urgent_waiter_then_in_arrival_order() -> None:
    gate = PriorityGate("test")
    order: list[str] = []
    arrivals = [
        (Priority.BACKGROUND, "consolidation"),
        (Priority.REQUEST, "capture 1"),
        (Priority.INTERACTIVE, "recall"),
        (Priority.REQUEST, "capture 2"),
        (Priority.BACKGROUND, "consolidation 2"),
    ]
    with gate.turn(Priority.REQUEST):
        waiters = []
        for count, (priority, name) in enumerate(arrivals, start=1):
            waiters.append(_queue(gate, priority, name, order))
            _until(lambda count=count: gate.waiting() == count, f"{name} queued")
    for waiter in waiters:
        waiter.result(timeout=10)
    assert order == ["recall", "capture 1", "capture 2", "consolidation", "consolidation 2"]


def test_a_waiter_that_waited_too_long_goes_ahead_of_writes_but_not_of_a_recall() -> None:
    now = [0.0]
    gate = PriorityGate("test", max_wait_s=5.0, clock=lambda: now[0])
    order: list[str] = []
    with gate.turn(Priority.REQUEST):
        background = _queue(gate, Priority.BACKGROUND, "consolidation", order)
        _until(lambda: gate.waiting() == 1, "consolidation queued")
        now[0] = 4.0
        later = [_queue(gate, Priority.REQUEST, "capture", order)]
        _until(lambda: gate.waiting() == 2, "capture queued")
        later.append(_queue(gate, Priority.INTERACTIVE, "recall", order))
        _until(lambda: gate.waiting() == 3, "recall queued")
        now[0] = 5.0  # consolidation has waited its longest; the others one second
    for waiter in [background, *later]:
        waiter.result(timeout=10)
    assert order == ["recall", "consolidation", "capture"]


def test_a_gate_with_two_slots_lets_two_in_and_queues_the_third() -> None:
    gate = PriorityGate("test", capacity=2)
    order: list[str] = []
    with gate.turn(Priority.REQUEST), gate.turn(Priority.REQUEST):
        third = _queue(gate, Priority.INTERACTIVE, "third", order)
        _until(lambda: gate.waiting() == 1, "the third queued")
        assert order == []
    third.result(timeout=10)
    assert order == ["third"]


def test_the_request_gauge_is_idle_only_when_no_request_is_in_flight() -> None:
    gauge = RequestGauge()
    assert gauge.wait_idle(0)
    with gauge.request():
        assert gauge.in_flight == 1
        assert not gauge.wait_idle(0.01)
        idle = _in_thread(lambda: gauge.wait_idle(600))
        _until(lambda: gauge.yielding == 1, "the waiter waits")
        assert not idle.done()
    assert idle.result(timeout=10) is True
    assert (gauge.in_flight, gauge.yielding) == (0, 0)


@_TURNS
def test_a_recall_answers_while_a_capture_holds_the_writer_and_counts_its_access_after(
    gql: GraphQLClient, app: InProcess, admin_secret: str, runtime: Runtime, namespace: str
) -> None:
    [dana] = capture_turns(
        gql, namespace, [("Dana", "Dana: I moved to Lisbon in spring.", "2023-01-01T10:00:00Z")], "s1"
    )
    recaller = app.graphql(admin_secret)
    gate = runtime.store.writers
    assert isinstance(gate, PriorityGate), "the embedded store's writers take turns"

    def accesses() -> int:
        return int(gql.data("memory", id=dana, namespace=namespace)["memory"]["accessCount"])

    with gate.turn(Priority.REQUEST):
        # Three recalls answer although no write can commit; their counts wait for the writer.
        for _ in range(3):
            hits = recaller.data("recall", input={"namespace": namespace, "query": "Where did Dana move?", "limit": 5})
            assert dana in [hit["memory"]["id"] for hit in hits["recall"]["hits"]]
        _until(lambda: gate.waiting(Priority.REQUEST) == 1, "the access counts queued at the writer")
        assert accesses() == 0
    assert runtime.access.flush(timeout_s=60)
    # Written together or one by one, each recall counts once.
    assert accesses() == 3


@_TURNS
def test_mutations_beyond_the_write_concurrency_wait_their_turn_outside(
    app: InProcess, admin_secret: str, runtime: Runtime, namespace: str
) -> None:
    bound = runtime.settings.server.write_concurrency
    gate = runtime.store.writers
    assert isinstance(gate, PriorityGate)
    clients = [app.graphql(admin_secret) for _ in range(bound + 3)]
    with gate.turn(Priority.REQUEST):
        captures = [
            _in_thread(
                lambda client=client, i=i: capture_turns(
                    client, namespace, [("Dana", f"Dana: note {i}.", "2023-01-01T10:00:00Z")], "s1"
                )
            )
            for i, client in enumerate(clients)
        ]
        _until(lambda: runtime.requests.in_flight == len(clients), "every capture in flight")
        _until(lambda: gate.waiting(Priority.REQUEST) >= bound, "the first ones at the writer")
        # The others wait before they run, outside the writer's queue, holding no thread.
        _until(lambda: runtime.requests.queued == len(clients) - bound, "the others queued before they run")
    assert sorted(len(capture.result(timeout=60)) for capture in captures) == [1] * len(clients)


def test_a_recall_query_is_embedded_while_capture_texts_wait_their_turn() -> None:
    gate = PriorityGate("test")
    embedder = MiniLMEmbedder(cache_dir=onnx_cache.default_dir(), gate=gate)
    embedder.warm_up()
    with gate.turn(Priority.REQUEST):
        batch = _in_thread(lambda: embedder.embed([f"Dana moved to Lisbon {uuid.uuid4()}."] * 3))
        _until(lambda: gate.waiting(Priority.REQUEST) == 1, "the batch queued")
        # The model is taken, yet the query is embedded: it waits for no capture's pass.
        assert len(embedder.embed_query(f"Where did Dana move? {uuid.uuid4()}")) == 384
        assert not batch.done() and gate.waiting() == 1
    assert [len(v) for v in batch.result(timeout=60)] == [384] * 3


def test_a_batchs_passes_each_take_a_turn_of_their_own() -> None:
    name = f"passes-{uuid.uuid4()}"
    gate = PriorityGate(name, capacity=2)
    embedder = MiniLMEmbedder(batch_size=1, cache_dir=onnx_cache.default_dir(), gate=gate)
    embedder.warm_up()
    texts = [f"Dana moved to Lisbon {uuid.uuid4()}.", f"Sam bought a red kayak {uuid.uuid4()}.", "Rain."]
    alone = [embedder.embed([text])[0] for text in texts]
    granted = {"gate": name, "priority": "request"}
    before = REGISTRY.get_sample_value("hippograph_turn_wait_seconds_count", granted)
    with gate.turn(Priority.REQUEST):
        # A pass per text, each at a turn of its own: with one of the two slots taken, the batch
        # still goes through, one pass after another, and the same vectors come back.
        vectors = embedder.embed(texts)
    assert vectors == alone
    assert REGISTRY.get_sample_value("hippograph_turn_wait_seconds_count", granted) == before + 1 + len(texts)


def _capture_raw(gql: GraphQLClient, namespace: str, count: int) -> None:
    turns = [("Dana", f"Dana: I moved to Lisbon, round {i}.", f"2023-01-0{1 + i}T10:00:00Z") for i in range(count)]
    capture_turns(gql, namespace, turns, "s1")


def test_background_consolidation_pauses_while_a_request_is_in_flight_and_resumes_after(
    gql: GraphQLClient, runtime: Runtime, namespace: str
) -> None:
    _capture_raw(gql, namespace, 3)
    with runtime.requests.request():
        draining = _in_thread(lambda: drain(runtime, namespace=namespace, yield_s=600))
        # Paused before its first lease: every episode is still raw and waiting.
        _until(lambda: runtime.requests.yielding == 1, "consolidation paused for the request")
        assert not draining.done()
        states = {row["state"]: row["count"] for row in runtime.store.read("consolidation_census", namespace=namespace)}
        assert states == {"raw": 3}
    assert draining.result(timeout=120) == (3, 0)
    assert remaining(runtime.store, namespace) == 0


def test_background_consolidation_pauses_for_a_bounded_time_under_a_load_that_never_stops(
    gql: GraphQLClient, runtime: Runtime, namespace: str
) -> None:
    _capture_raw(gql, namespace, 3)
    with runtime.requests.request():
        assert drain(runtime, namespace=namespace, yield_s=0.2) == (3, 0)
        assert runtime.requests.in_flight == 1
    assert remaining(runtime.store, namespace) == 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="threads have OS priorities of their own on Linux")
def test_captures_forward_passes_run_on_threads_of_lower_os_priority(runtime: Runtime) -> None:
    niceness = runtime.settings.models.embedding_niceness
    assert niceness > 0
    assert len(runtime.embedder.embed([f"Dana moved to Lisbon {uuid.uuid4()}."])[0]) == 384
    # The runtime's gate is named "model"; other embedders' pass threads (this module's own) are not its.
    passes = [thread for thread in threading.enumerate() if thread.name.startswith("embedding-pass-model_")]
    assert passes, "the pass ran on a thread of the embedder's"
    mine = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    assert {os.getpriority(os.PRIO_PROCESS, thread.native_id) for thread in passes} == {min(19, mine + niceness)}


def test_a_thread_lowers_its_own_priority_and_no_other() -> None:
    def lowered() -> tuple[int, int]:
        before = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        lower_thread_priority(3)
        return before, os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    mine = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    before, after = _in_thread(lowered).result(timeout=10)
    if sys.platform.startswith("linux"):
        assert after == min(19, before + 3)
    else:
        assert after == before
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == mine
