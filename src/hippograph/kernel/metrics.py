"""Every metric Hippograph exports on /metrics, declared in one place (docs/metrics.md).

Label values come from closed sets only: error codes, the schema's root fields, recall's stages,
the names of the files in ``cypher/``. Never a namespace, a key or anything a client sends, so
the number of series stays bounded whatever the traffic.

prometheus_client keeps these in its per-process default registry. Everything counted here is
counted in the server's process: consolidation's worker processes only extract and embed, and
the server commits what they derive and counts it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from hippograph.kernel.model import CaptureOutcome
    from hippograph.kernel.timing import StageTiming

log = logging.getLogger(__name__)

# Buckets in seconds: a request spans milliseconds to seconds, a statement or a stage less.
_REQUEST_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
_FAST_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

OK = "OK"

# --- the API: requests refused before GraphQL runs, errors, root fields run -----------------
REFUSED = Counter(
    "hippograph_requests_refused",
    "Requests refused before GraphQL ran (Host, Origin, key, rate, body size), by HTTP status and error code.",
    ["status", "code"],
)
ERRORS = Counter(
    "hippograph_graphql_errors",
    "Errors in GraphQL responses, by extensions.code.",
    ["code"],
)
OPERATIONS = Counter(
    "hippograph_operations",
    "Root fields run (recall, capture, ...), by root field and outcome: OK or the error code it raised.",
    ["operation", "code"],
)
OPERATION_SECONDS = Histogram(
    "hippograph_operation_duration_seconds",
    "Wall-clock time of a root field's resolver, by root field (subscriptions excluded).",
    ["operation"],
    buckets=_REQUEST_BUCKETS,
)

# --- recall and capture ----------------------------------------------------------------------
RECALL_STAGE_SECONDS = Histogram(
    "hippograph_recall_stage_duration_seconds",
    "Time of each stage of a recall (the channels, fusion, authorization, scoring, ...), by stage.",
    ["stage"],
    buckets=_FAST_BUCKETS,
)
GRAPH_COPY_LOADS = Counter(
    "hippograph_graph_copy_loads",
    "Namespaces' graphs read whole into this process's copies (store/graph_copy.py).",
)
GRAPH_UNDECLARED_WRITES = Counter(
    "hippograph_graph_undeclared_writes",
    "Write transactions that wrote a graph without naming its namespace, so that every namespace's "
    "copies were stopped (store/graph_stamps.py); a bug when not zero.",
)
CAPTURES = Counter(
    "hippograph_captures",
    "Captured inputs, by outcome: created, duplicate (same agent) or corroborated (another agent).",
    ["outcome"],
)
CAPTURES_REDACTED = Counter(
    "hippograph_captures_redacted",
    "Captured inputs in which at least one credential was redacted before storage.",
)

# --- consolidation -----------------------------------------------------------------------------
CONSOLIDATED = Counter(
    "hippograph_consolidation_episodes",
    "Episodes consolidation finished with, by outcome: committed, or failed (sent back to retry "
    "or to the dead letter).",
    ["outcome"],
)
DEAD_LETTERED = Counter(
    "hippograph_consolidation_dead_lettered",
    "Episodes moved to the dead letter (state failed) after their last attempt.",
)

# --- the store and the models ------------------------------------------------------------------
STATEMENT_SECONDS = Histogram(
    "hippograph_store_statement_duration_seconds",
    "Time of one named Cypher statement, rows read included, by query (a file of cypher/).",
    ["query"],
    buckets=_FAST_BUCKETS,
)
STATEMENT_ERRORS = Counter(
    "hippograph_store_statement_errors",
    "Statements that failed, by query and kind: transient (retried), conflict, client, unavailable, other.",
    ["query", "error"],
)
STORE_RETRIES = Counter(
    "hippograph_store_transaction_retries",
    "Transactions run again after a transient failure (a write conflict, a lost connection).",
)
TURN_WAIT_SECONDS = Histogram(
    "hippograph_turn_wait_seconds",
    "Time work waited for its turn where work takes turns by priority (docs/operations.md), by place "
    "(writer: the embedded store's write transactions; model: the embedding model) and priority "
    "(interactive, request, background).",
    ["gate", "priority"],
    buckets=_FAST_BUCKETS + (5.0, 10.0),
)
EMBEDDING_SECONDS = Histogram(
    "hippograph_embedding_duration_seconds",
    "Time the embedding model took, by kind: batch (captures, re-embedding) or query (a recall's "
    "query not in the cache).",
    ["kind"],
    buckets=_FAST_BUCKETS + (5.0, 10.0),
)
EMBEDDED_TEXTS = Counter(
    "hippograph_embedded_texts",
    "Texts the embedding model encoded, by kind (batch or query).",
    ["kind"],
)


@contextmanager
def timed(histogram: Histogram, *labels: str) -> Iterator[None]:
    """Observe the block's wall-clock time, whether it returns or raises."""
    start = time.perf_counter()
    try:
        yield
    finally:
        histogram.labels(*labels).observe(time.perf_counter() - start)


def operation_done(operation: str, code: str, seconds: float | None) -> None:
    OPERATIONS.labels(operation, code).inc()
    if seconds is not None:
        OPERATION_SECONDS.labels(operation).observe(seconds)


def recall_stages(timings: Iterable[StageTiming]) -> None:
    for timing in timings:
        RECALL_STAGE_SECONDS.labels(timing.stage).observe(timing.ms / 1000)


def captured(outcomes: Iterable[CaptureOutcome]) -> None:
    for outcome in outcomes:
        CAPTURES.labels(outcome.status.value.lower()).inc()
        if outcome.redactions:
            CAPTURES_REDACTED.inc()


def consolidated(committed: int, failed: int) -> None:
    CONSOLIDATED.labels("committed").inc(committed)
    CONSOLIDATED.labels("failed").inc(failed)


@dataclass(frozen=True)
class Backlog:
    """What consolidation has still to do, across every namespace."""

    raw: int
    leased: int
    failed: int  # the dead letter
    lag_seconds: float  # age of the oldest episode waiting; 0 when none waits


class BacklogCollector(Collector):
    """Consolidation's backlog as gauges, read from the store when scraped: counting episodes by
    state reads every one of them, so a reading is kept ``max_age_s`` for the scrapes that follow
    (several Prometheus servers, a dashboard refreshing). A failed reading leaves the gauges out
    of that scrape rather than failing it."""

    def __init__(self, read: Callable[[], Backlog], max_age_s: float) -> None:
        self._read = read
        self._max_age_s = max_age_s
        self._lock = threading.Lock()
        self._kept: tuple[float, Backlog] | None = None

    def collect(self) -> Iterator[GaugeMetricFamily]:
        backlog = self._reading()
        if backlog is None:
            return
        waiting = GaugeMetricFamily(
            "hippograph_consolidation_backlog_episodes",
            "Episodes waiting for consolidation, by state: raw (waiting or backing off) or leased (being worked on).",
            labels=["state"],
        )
        waiting.add_metric(["raw"], backlog.raw)
        waiting.add_metric(["leased"], backlog.leased)
        yield waiting
        yield GaugeMetricFamily(
            "hippograph_consolidation_lag_seconds",
            "Age of the oldest episode still waiting for consolidation; 0 when none waits.",
            value=backlog.lag_seconds,
        )
        yield GaugeMetricFamily(
            "hippograph_consolidation_dead_letters",
            "Episodes in the dead letter (state failed) now: requeue them once the cause is fixed.",
            value=backlog.failed,
        )

    def _reading(self) -> Backlog | None:
        with self._lock:  # concurrent scrapes share one reading
            now = time.monotonic()
            if self._kept is not None and now - self._kept[0] < self._max_age_s:
                return self._kept[1]
            try:
                backlog = self._read()
            except Exception:
                log.warning("reading consolidation's backlog for /metrics failed", exc_info=True)
                return None
            self._kept = (now, backlog)
            return backlog


def registry(collectors: Sequence[Collector]) -> CollectorRegistry:
    """What one app serves on /metrics: every metric of the process (the default registry: the
    metrics above and the process's own), and ``collectors`` that belong to that app (they read
    its store)."""
    served = CollectorRegistry()
    for collector in (REGISTRY, *collectors):
        served.register(collector)
    return served
