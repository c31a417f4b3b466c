"""Where a recall spends, by channel set, on a store `locomo_recall.py` filled, in process.

The questions of one LoCoMo conversation are asked of five channel sets in turn (all four
channels; keyword and vector with the context channel, and with the graph channel; keyword and
vector; keyword alone), after ``--warmup`` uncounted recalls of every conversation's questions
(the JVM compiles its hot paths for the first several hundred recalls, at ~30 ms of CPU a
recall: fewer measure the compiler). Per set: process CPU milliseconds per recall (the embedded
engine runs in this process, so its threads count), median and p95; the mean split by thread,
from the set's questions asked again in a block: Python's (spaCy, ONNX Runtime and the driver
included), the engine's Bolt threads, the JVM's compiler and collector; each stage's median; per question, the milliseconds each named statement
took (STATEMENT_SECONDS), per set; with ``--profile`` the Python functions of the all-channel
recalls that took the most time (cProfile).

    python bench/recall_profile.py --data-dir DIR [--conversation conv-26] [--questions 60] [--warmup 600] [--profile]
    . .neo4j/env && python bench/recall_profile.py --data-dir DIR --namespace big-conv-26-c050   # on scale_import's store
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import statistics
import time
from collections import defaultdict
from pathlib import Path

from harness import load_average, load_turns, locomo_dev
from locomo_recall import load_queries, namespace_of

from hippograph.api.queries import recall_parts
from hippograph.extraction.lazy import LazyExtractor
from hippograph.kernel.config import Settings
from hippograph.kernel.metrics import STATEMENT_SECONDS
from hippograph.recall.request import Channel, RecallRequest
from hippograph.recall.service import recall
from hippograph.runtime import open_runtime

# Thread names (/proc/self/task/*/comm) by what runs in them; the rest are Python's.
THREAD_KINDS = {
    "BOLT-": "engine",
    "C1 Compiler": "compiler",
    "C2 Compiler": "compiler",
    "G1 ": "collector",
    "GC ": "collector",
}
CHANNEL_SETS: dict[str, frozenset[Channel] | None] = {
    "all": None,
    # All but one of the context and graph channels: what each adds to keyword and vector.
    "keyword+vector+context": frozenset({Channel.KEYWORD, Channel.VECTOR, Channel.CONTEXT}),
    "keyword+vector+graph": frozenset({Channel.KEYWORD, Channel.VECTOR, Channel.GRAPH}),
    "keyword+vector": frozenset({Channel.KEYWORD, Channel.VECTOR}),
    "keyword": frozenset({Channel.KEYWORD}),
}


def statement_seconds() -> dict[str, float]:
    return {
        sample.labels["query"]: sample.value
        for family in STATEMENT_SECONDS.collect()
        for sample in family.samples
        if sample.name.endswith("_sum")
    }


def thread_cpu_ms() -> dict[str, float]:
    """CPU milliseconds of this process's threads so far, by kind (THREAD_KINDS), in 10 ms ticks;
    a thread that has ended is not counted."""
    ticks = os.sysconf("SC_CLK_TCK")
    spent: dict[str, float] = defaultdict(float)
    for task in Path("/proc/self/task").iterdir():
        try:
            name = (task / "comm").read_text().strip()
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # the thread ended meanwhile
            continue
        kind = next((kind for prefix, kind in THREAD_KINDS.items() if name.startswith(prefix)), "python")
        spent[kind] += (int(fields[11]) + int(fields[12])) * 1000 / ticks
    return spent


def request(question: str, namespace: str, channels: frozenset[Channel] | None) -> RecallRequest:
    if channels is None:
        return RecallRequest(question, namespace, 20, count_access=False)
    return RecallRequest(question, namespace, 20, channels=channels, count_access=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--conversation", default="conv-26")
    parser.add_argument(
        "--namespace", help="ask the conversation's questions of this namespace (a copy scale_import.py restored)"
    )
    parser.add_argument("--questions", type=int, default=60)
    parser.add_argument("--warmup", type=int, default=600, help="uncounted recalls before measuring")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    samples = json.loads(locomo_dev().read_text())
    queries, _ = load_queries(samples, load_turns(samples))
    asked = [q for q in queries if q.namespace == namespace_of(args.conversation)][: args.questions]
    # The question read in this process too, where the profile and the thread clocks see it.
    settings = Settings.from_env().with_overrides(
        data_dir=args.data_dir, consolidation_processes=0, query_cache_size=0, question_process=False
    )
    runtime = open_runtime(settings)
    parts = recall_parts(runtime)
    extractor = runtime.extractor
    assert isinstance(extractor, LazyExtractor)
    profiler = cProfile.Profile()
    cpu: dict[str, list[float]] = defaultdict(list)
    by_thread: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    stages: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    try:
        runtime.warm_up()
        for number in range(args.warmup):
            query = queries[number % len(queries)]
            recall(parts, request(query.question, args.namespace or query.namespace, None))
        load_before = load_average()
        statements: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        for query in asked:
            for name, channels in CHANNEL_SETS.items():
                profiling = args.profile and channels is None
                if profiling:
                    profiler.enable()
                before = statement_seconds()
                # Each set reads the question itself: the extractor keeps the last questions' parses.
                extractor.forget_questions()
                started = time.process_time()
                result = recall(parts, request(query.question, args.namespace or query.namespace, channels))
                cpu[name].append((time.process_time() - started) * 1000)
                for statement, seconds in statement_seconds().items():
                    statements[name][statement] += seconds - before.get(statement, 0.0)
                if profiling:
                    profiler.disable()
                for timing in result.timings:
                    stages[name][timing.stage].append(timing.ms)
        # Then each set's questions in a block of their own, between two reads of the threads' CPU:
        # a read costs a few milliseconds, too much to count inside each recall.
        for name, channels in CHANNEL_SETS.items():
            threads_before = thread_cpu_ms()
            for query in asked:
                extractor.forget_questions()
                recall(parts, request(query.question, args.namespace or query.namespace, channels))
            for kind, ms in thread_cpu_ms().items():
                by_thread[name][kind] += ms - threads_before.get(kind, 0.0)
    finally:
        runtime.close()
    count = len(asked)
    report = {
        "load_average": [load_before, load_average()],
        "cpu_ms": {
            name: {
                "median": round(statistics.median(values), 1),
                "p95": round(statistics.quantiles(values, n=20, method="inclusive")[-1], 1),
            }
            for name, values in cpu.items()
        },
        "cpu_ms_by_thread_mean": {
            name: {kind: round(ms / count, 1) for kind, ms in sorted(spent.items(), key=lambda item: -item[1])}
            for name, spent in by_thread.items()
        },
        "stage_median_ms": {
            name: {stage: round(statistics.median(ms), 1) for stage, ms in by_stage.items()}
            for name, by_stage in stages.items()
        },
        "statement_ms_per_recall": {
            name: {
                query: round(seconds * 1000 / count, 1)
                for query, seconds in sorted(by_query.items(), key=lambda item: -item[1])
                if seconds > 0
            }
            for name, by_query in statements.items()
        },
    }
    print(json.dumps(report, indent=2))
    if args.profile:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
