"""Capture and recall through the public GraphQL contract, measured as a client sees them.

Starts ``hippograph serve`` as a subprocess (embedded ArcadeDB, fresh data directory, free port),
then, in one namespace that grows to N episodes built from the LoCoMo conversation turns:

* ``capture``: the first episodes one request at a time (throughput, latency median and p95);
* ``captureBatch``: the rest in batches of 64 (throughput, per-batch latency median and p95);
* ``recall`` (limit 10) at the full N with LoCoMo questions (latency median, p95, p99, and the
  server's own per-stage timings as medians);
* the server's peak resident memory (VmHWM; ArcadeDB runs in-process, so one PID covers it);
* for reading the capture numbers, the same MiniLM embedder timed alone after the server stops.

Every request uses the text of ``graphql/operations/*.graphql``. Run from a checkout:

    python bench/capture_recall.py [--episodes 10000] [--singles 500] [--queries 300] [--port auto]
                                   [--data-dir tmp] [--out bench/results/capture_recall.json]

The server inherits the environment, so ``HIPPOGRAPH_*`` settings apply to it. Results go to
``--out`` as JSON and to stdout as Markdown; progress goes to stderr.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from harness import (
    REPO,
    GraphQLClient,
    Turn,
    add_store_option,
    free_port,
    git_revision,
    load_average,
    load_turns,
    locomo_dev,
    machine,
    peak_rss_mib,
    running_server,
    store_directory,
    summary,
    use_store,
)
from tqdm import tqdm

NAMESPACE = "bench"
# Warm-up captures go elsewhere so that the measured namespace holds exactly N episodes.
WARMUP_NAMESPACE = "bench-warmup"
OPERATION_NAMES = ("capture", "captureBatch", "recall")
BATCH_SIZE = 64  # the service's limit per captureBatch
RECALL_LIMIT = 10
WARMUP_REQUESTS = 10
EMBED_REFERENCE_SINGLES = 100
EMBED_REFERENCE_BATCHES = 10


@dataclass(frozen=True)
class Episode:
    content: str
    agent: str
    session: str
    occurred_at: str

    def input(self, namespace: str = NAMESPACE) -> dict[str, str]:
        return {
            "namespace": namespace,
            "content": self.content,
            "agent": self.agent,
            "session": self.session,
            "occurredAt": self.occurred_at,
        }


# --- corpus -------------------------------------------------------------------------------


def build_corpus(turns: Sequence[Turn], size: int) -> list[Episode]:
    """``size`` distinct episodes: the turns as they are, then replayed in rounds.

    The service deduplicates identical content within a namespace, so round r >= 2 marks each
    turn's content with its round and files it under a session of that round.
    """
    episodes = []
    for index in range(size):
        replay, position = divmod(index, len(turns))
        turn = turns[position]
        session = f"{turn.sample_id}/session_{turn.session}"
        if replay == 0:
            content = f"{turn.speaker}: {turn.text}"
        else:
            round_number = replay + 1
            content = f"{turn.speaker} (round {round_number}): {turn.text}"
            session = f"{session}/round_{round_number}"
        episodes.append(Episode(content, turn.speaker, session, turn.occurred_at))
    return episodes


def spread(items: Sequence[str], count: int) -> list[str]:
    """``count`` items evenly spaced over ``items``, so every conversation is queried."""
    count = min(count, len(items))
    return [items[i * len(items) // count] for i in range(count)]


# --- the server ---------------------------------------------------------------------------


# --- GraphQL over HTTP --------------------------------------------------------------------


class GraphQL:
    """The documented operations, each request timed on its own."""

    def __init__(self, base_url: str) -> None:
        # Batches of 64 take seconds on a small machine; a timeout here would only lose data.
        self.client = GraphQLClient(base_url, OPERATION_NAMES, timeout_s=300)

    def capture_one(self, items: list[dict[str, str]]) -> tuple[float, list[dict[str, Any]]]:
        """``capture`` of the only item, shaped like ``capture_batch`` so that both measure alike."""
        (item,) = items
        elapsed_ms, data = self.client.post("capture", input=item)
        return elapsed_ms, [data["capture"]]

    def capture_batch(self, items: list[dict[str, str]]) -> tuple[float, list[dict[str, Any]]]:
        elapsed_ms, data = self.client.post("captureBatch", inputs=items)
        return elapsed_ms, data["captureBatch"]

    def recall(self, namespace: str, query: str) -> tuple[float, dict[str, Any]]:
        elapsed_ms, data = self.client.post(
            "recall",
            input={"namespace": namespace, "query": query, "limit": RECALL_LIMIT},
        )
        return elapsed_ms, data["recall"]


Send = Callable[[list[dict[str, str]]], tuple[float, list[dict[str, Any]]]]


# --- measurements -------------------------------------------------------------------------


def warm_up(gql: GraphQL, episodes: Sequence[Episode], questions: Sequence[str]) -> None:
    """Model, JIT and connection warm-up, kept out of the measured namespace."""
    for episode in episodes[:WARMUP_REQUESTS]:
        gql.capture_one([episode.input(WARMUP_NAMESPACE)])
    gql.capture_batch([episode.input(WARMUP_NAMESPACE) for episode in episodes[:BATCH_SIZE]])
    for question in questions:
        gql.recall(WARMUP_NAMESPACE, question)


def measure_captures(
    episodes: Sequence[Episode], per_request: int, send: Send, label: str
) -> tuple[dict[str, Any], Counter[str]]:
    """Sequential requests of ``per_request`` episodes each: throughput and per-request latency."""
    latencies, statuses = [], Counter[str]()
    start = time.perf_counter()
    with tqdm(total=len(episodes), desc=label, unit="ep") as progress:
        for offset in range(0, len(episodes), per_request):
            chunk = [episode.input() for episode in episodes[offset : offset + per_request]]
            elapsed_ms, outcomes = send(chunk)
            latencies.append(elapsed_ms)
            statuses.update(outcome["status"] for outcome in outcomes)
            progress.update(len(chunk))
    seconds = time.perf_counter() - start
    result = {
        "requests": len(latencies),
        "episodes": len(episodes),
        "episodes_per_request": per_request,
        "seconds": round(seconds, 2),
        "episodes_per_s": round(len(episodes) / seconds, 1),
        "latency_ms": summary(latencies, 95),
        # Does capture slow down as the namespace grows?
        "median_ms_by_quarter": [round(statistics.median(quarter), 1) for quarter in quarters(latencies)],
    }
    return result, statuses


def quarters(values: Sequence[float]) -> list[Sequence[float]]:
    bounds = [len(values) * i // 4 for i in range(5)]
    return [values[start:end] for start, end in itertools.pairwise(bounds) if end > start]


def measure_recall(gql: GraphQL, questions: Sequence[str], corpus_size: int) -> dict[str, Any]:
    latencies, hits = [], []
    stages: dict[str, list[float]] = defaultdict(list)
    for question in tqdm(questions, desc="recall", unit="q"):
        elapsed_ms, result = gql.recall(NAMESPACE, question)
        latencies.append(elapsed_ms)
        hits.append(len(result["hits"]))
        for timing in result["timings"]:
            stages[timing["stage"]].append(timing["ms"])
    return {
        "queries": len(questions),
        "limit": RECALL_LIMIT,
        "corpus_episodes": corpus_size,
        "hits_median": statistics.median(hits),
        "latency_ms": summary(latencies, 95, 99),
        # Stages nest where the service nests them: "vector" includes "embed_query".
        "stage_median_ms": {stage: round(statistics.median(ms), 2) for stage, ms in stages.items()},
    }


def embedding_reference(singles: Sequence[Episode], batched: Sequence[Episode]) -> dict[str, Any]:
    """The service's embedder alone, with the server stopped, on texts the captures sent: how much
    of a capture is embedding. A lower bound, since in the server it competes with the store for CPU."""
    # The bench runs from a checkout; the service need not be installed.
    sys.path.insert(0, str(REPO / "src"))
    from hippograph.embedding import MiniLMEmbedder

    embedder = MiniLMEmbedder()

    def embed_ms(chunk: Sequence[Episode]) -> float:
        start = time.perf_counter()
        embedder.embed([episode.content for episode in chunk])
        return (time.perf_counter() - start) * 1000

    embed_ms(singles)  # model load and warm-up
    single_ms = [embed_ms([episode]) for episode in singles]
    batch_ms = [embed_ms(batched[offset : offset + BATCH_SIZE]) for offset in range(0, len(batched), BATCH_SIZE)]
    return {
        "single_text_ms": summary(single_ms, 95),
        "batch_of_64_ms": summary(batch_ms, 95),
    }


# --- the run ------------------------------------------------------------------------------


def run(args: argparse.Namespace, data_dir: Path) -> dict[str, Any]:
    samples = json.loads(locomo_dev().read_text())
    turns = load_turns(samples)
    episodes = build_corpus(turns, args.episodes)
    questions = [qa["question"] for sample in samples for qa in sample["qa"]]
    measured = spread(questions, args.queries)
    taken = set(measured)
    warmup_questions = [question for question in questions if question not in taken][:WARMUP_REQUESTS]
    port = free_port() if args.port == "auto" else int(args.port)
    # Other work on the machine skews every number; the load averages say how much there was.
    load_before = load_average()
    results, statuses = measure_server(data_dir, port, episodes, args.singles, measured, warmup_questions)
    load_after = load_average()

    if statuses.get("CREATED") != len(episodes):
        print(f"warning: not every episode was new: {statuses}", file=sys.stderr)
    reference_batches = episodes[args.singles : args.singles + EMBED_REFERENCE_BATCHES * BATCH_SIZE]
    return {
        "machine": machine(),
        "run": {
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "command": " ".join(["python", *sys.argv]),
            **git_revision(),
            "namespace": NAMESPACE,
            "episodes": len(episodes),
            "locomo_turns": len(turns),
            "capture_statuses": statuses,
            "load_average_before": load_before,
            "load_average_after": load_after,
        },
        **results,
        "embedding_reference": embedding_reference(episodes[:EMBED_REFERENCE_SINGLES], reference_batches),
    }


def measure_server(
    data_dir: Path,
    port: int,
    episodes: Sequence[Episode],
    singles: int,
    questions: Sequence[str],
    warmup_questions: Sequence[str],
) -> tuple[dict[str, Any], dict[str, int]]:
    """The measurements through HTTP, and how the service classified the captured episodes."""
    with running_server(data_dir, port) as server:
        gql = GraphQL(f"http://127.0.0.1:{port}")
        warm_up(gql, episodes, warmup_questions)
        single, single_statuses = measure_captures(episodes[:singles], 1, gql.capture_one, "capture")
        batch, batch_statuses = measure_captures(episodes[singles:], BATCH_SIZE, gql.capture_batch, "captureBatch")
        for question in warmup_questions:  # caches at the full corpus size
            gql.recall(NAMESPACE, question)
        recall = measure_recall(gql, questions, len(episodes))
        rss = peak_rss_mib(server.pid)
    results = {
        "capture_single": single,
        "capture_batch": batch,
        "recall": recall,
        "server_peak_rss_mib": rss,
    }
    return results, dict(single_statuses + batch_statuses)


def markdown(results: dict[str, Any]) -> str:
    single, batch, recall = (
        results["capture_single"],
        results["capture_batch"],
        results["recall"],
    )
    embed = results["embedding_reference"]
    lines = [
        "| operation | requests | median ms | p95 ms | p99 ms | throughput |",
        "|---|---:|---:|---:|---:|---:|",
        (
            f"| capture (1 episode) | {single['requests']} | {single['latency_ms']['median']} "
            f"| {single['latency_ms']['p95']} | | {single['episodes_per_s']} episodes/s |"
        ),
        (
            f"| captureBatch ({BATCH_SIZE} episodes) | {batch['requests']} | {batch['latency_ms']['median']} "
            f"| {batch['latency_ms']['p95']} | | {batch['episodes_per_s']} episodes/s |"
        ),
        (
            f"| recall (limit {recall['limit']}, {recall['corpus_episodes']} episodes) | {recall['queries']} "
            f"| {recall['latency_ms']['median']} | {recall['latency_ms']['p95']} | {recall['latency_ms']['p99']} | |"
        ),
        "",
        "| recall stage | median ms |",
        "|---|---:|",
        *(f"| {stage} | {ms} |" for stage, ms in recall["stage_median_ms"].items()),
        "",
        f"Server peak RSS (VmHWM): {results['server_peak_rss_mib']} MiB.",
        (
            f"Embedder alone: one text {embed['single_text_ms']['median']} ms, "
            f"{BATCH_SIZE} texts {embed['batch_of_64_ms']['median']} ms (medians)."
        ),
    ]
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--episodes",
        type=int,
        default=10_000,
        help="size of the namespace (default 10000)",
    )
    parser.add_argument(
        "--singles",
        type=int,
        default=500,
        help="episodes captured one per request (default 500)",
    )
    parser.add_argument("--queries", type=int, default=300, help="recall queries measured (default 300)")
    parser.add_argument(
        "--port",
        type=port_arg,
        default="auto",
        help="server port, or auto for a free one",
    )
    parser.add_argument(
        "--data-dir",
        default="tmp",
        help="an empty or new directory for the store, or tmp",
    )
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "capture_recall.json")
    add_store_option(parser)
    args = parser.parse_args(argv)
    # Percentiles need at least two requests of each kind.
    if min(args.singles, args.queries) < 2 or args.episodes - args.singles <= BATCH_SIZE:
        parser.error(f"need --singles and --queries >= 2 and --episodes > --singles + {BATCH_SIZE}")
    return args


def port_arg(value: str) -> str:
    if value != "auto" and not value.isdigit():
        raise argparse.ArgumentTypeError("a port number or auto")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    use_store(args.store)
    with store_directory(args.data_dir, prefix="hippograph-bench-") as data_dir:
        if args.data_dir != "tmp" and any(data_dir.iterdir()):
            sys.exit(f"{data_dir} is not empty; the benchmark needs a fresh store")
        results = run(args, data_dir)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    print(markdown(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
