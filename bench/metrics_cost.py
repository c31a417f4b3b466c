"""What /metrics costs a request: capture and recall with the metrics counting, and with them
turned into no-ops, side by side in one process, interleaved.

The app runs in this process (Starlette's test client, every layer from the HTTP middleware down)
over an embedded ArcadeDB in a fresh directory, holding N LoCoMo turns. Each round sends the same
request twice, once per arm, the arm that goes first alternating, so the machine's load and the
query-embedding cache fall on both alike. "Off" patches prometheus_client so that ``labels``,
``inc`` and ``observe`` do nothing: what is left of the instrumentation (a clock read, a wrapper
call) is in both arms.

    python bench/metrics_cost.py [--episodes 1000] [--rounds 200]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

from harness import REPO, load_average, load_turns, locomo_dev, machine, summary
from prometheus_client.metrics import Counter, Histogram, MetricWrapperBase
from starlette.testclient import TestClient

sys.path.insert(0, str(REPO / "src"))

from hippograph.api.app import create_app
from hippograph.consolidation.status import backlog
from hippograph.kernel.config import Settings
from hippograph.runtime import open_runtime

OPERATIONS = REPO / "graphql" / "operations"
BATCH = 64
CENSUS_READS = 20


@contextlib.contextmanager
def metrics_off() -> Iterator[None]:
    saved = (MetricWrapperBase.labels, Counter.inc, Histogram.observe)

    def nothing(self: Any, *args: Any, **kwargs: Any) -> None:
        return None

    MetricWrapperBase.labels = lambda self, *args, **kwargs: self  # type: ignore[method-assign]
    Counter.inc = nothing  # type: ignore[method-assign]
    Histogram.observe = nothing  # type: ignore[method-assign]
    try:
        yield
    finally:
        MetricWrapperBase.labels, Counter.inc, Histogram.observe = saved  # type: ignore[method-assign]


@contextlib.contextmanager
def counting(calls: list[str]) -> Iterator[None]:
    """Metrics that still count, and note each update: how many a request makes."""
    saved = (Counter.inc, Histogram.observe)

    def inc(self: Any, amount: float = 1, exemplar: Any = None) -> None:
        calls.append("inc")
        saved[0](self, amount, exemplar)

    def observe(self: Any, amount: float, exemplar: Any = None) -> None:
        calls.append("observe")
        saved[1](self, amount, exemplar)

    Counter.inc, Histogram.observe = inc, observe  # type: ignore[method-assign]
    try:
        yield
    finally:
        Counter.inc, Histogram.observe = saved  # type: ignore[method-assign]


def update_cost_us() -> float:
    """One labelled histogram update (``labels`` then ``observe``), in microseconds."""
    histogram = Histogram("hippograph_bench_probe_seconds", "probe", ["query"], registry=None)
    count = 100_000
    start = time.perf_counter()
    for _ in range(count):
        histogram.labels("create_episodes").observe(0.001)
    return (time.perf_counter() - start) / count * 1e6


def timed_ms(send: Callable[[], Any]) -> float:
    start = time.perf_counter()
    send()
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()

    samples = json.loads(locomo_dev().read_text(encoding="utf-8"))
    turns = load_turns(samples)
    questions = [qa["question"] for sample in samples for qa in sample["qa"]][: args.rounds]
    capture_doc = (OPERATIONS / "capture.graphql").read_text(encoding="utf-8")
    batch_doc = (OPERATIONS / "captureBatch.graphql").read_text(encoding="utf-8")
    recall_doc = (OPERATIONS / "recall.graphql").read_text(encoding="utf-8")

    with tempfile.TemporaryDirectory(prefix="hippograph-metrics-cost-") as data_dir:
        settings = Settings.from_env().with_overrides(
            data_dir=Path(data_dir), consolidation_interval_s=0.0, sweep_interval_s=0.0
        )
        runtime = open_runtime(settings)
        try:
            runtime.warm_up()
            with TestClient(create_app(runtime), base_url="http://127.0.0.1") as client:

                def post(document: str, **variables: Any) -> None:
                    response = client.post("/graphql", json={"query": document, "variables": variables})
                    assert response.status_code == 200 and "errors" not in response.json(), response.text

                corpus = turns[: args.episodes]
                for start in range(0, len(corpus), BATCH):
                    inputs = [{"content": t.text, "agent": t.speaker} for t in corpus[start : start + BATCH]]
                    post(batch_doc, inputs=inputs)
                print(f"{len(corpus)} episodes stored; load {load_average()}", file=sys.stderr)
                # What one reading of the backlog gauges costs at this size (a scrape pays it at
                # most once per HIPPOGRAPH_METRICS_BACKLOG_CACHE_S).
                census_ms = [timed_ms(partial(backlog, runtime.store, runtime.clock)) for _ in range(CENSUS_READS)]

                arms: dict[str, dict[str, list[float]]] = {
                    "on": {"capture": [], "recall": []},
                    "off": {"capture": [], "recall": []},
                }
                fresh = iter(turns[args.episodes :])
                for number, question in enumerate(questions):
                    order = ("on", "off") if number % 2 == 0 else ("off", "on")
                    for arm in order:
                        toggle = metrics_off() if arm == "off" else contextlib.nullcontext()
                        turn = next(fresh)
                        capture = {"content": turn.text, "agent": turn.speaker}
                        recall = {"query": question, "countAccess": False}
                        with toggle:
                            arms[arm]["capture"].append(timed_ms(partial(post, capture_doc, input=capture)))
                            arms[arm]["recall"].append(timed_ms(partial(post, recall_doc, input=recall)))
                updates: dict[str, int] = {}
                for operation, send in (
                    ("capture", lambda: post(capture_doc, input={"content": next(fresh).text, "agent": "bench"})),
                    ("recall", lambda: post(recall_doc, input={"query": questions[0], "countAccess": False})),
                ):
                    calls: list[str] = []
                    with counting(calls):
                        send()
                    updates[operation] = len(calls)
        finally:
            runtime.close()

    result = {
        "machine": machine(),
        "load_average_after": load_average(),
        "episodes": args.episodes,
        "rounds": len(questions),
        "update_cost_us": round(update_cost_us(), 2),
        "backlog_reading_ms": summary(census_ms, 95),
        "updates_per_request": updates,
        **{
            operation: {arm: summary(arms[arm][operation], 95) for arm in ("on", "off")}
            for operation in ("capture", "recall")
        },
    }
    print(json.dumps(result, indent=2))
    for operation in ("capture", "recall"):
        on, off = result[operation]["on"], result[operation]["off"]
        print(
            f"| {operation} | {off['median']} | {on['median']} | {on['median'] / off['median']:.3f} "
            f"| {off['p95']} | {on['p95']} | {on['p95'] / off['p95']:.3f} |"
        )


if __name__ == "__main__":
    main()
