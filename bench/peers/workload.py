"""What both systems are given and how both are scored: the same LoCoMo turns in the same batches,
the same questions, the same recall@k and the same latency summary."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from itertools import groupby
from pathlib import Path
from typing import Any

from harness import Turn, load_average, load_turns, summary
from locomo_recall import Query, load_queries, namespace_of, recall_at
from tqdm import tqdm

KS = (1, 5, 10)
LIMIT = max(KS)


@dataclass(frozen=True)
class Workload:
    turns: list[Turn]
    batches: list[list[Turn]]  # each within one conversation (one namespace, one Mem0 user)
    queries: list[Query]
    skipped_queries: int
    warmup: list[Turn]  # turns asked as queries before measuring, never a question
    warmup_batch: list[Turn]  # captured before measuring, in a namespace of its own

    @classmethod
    def load(cls, locomo: Path, batch_size: int, warmup: int) -> Workload:
        samples = json.loads(locomo.read_text())
        turns = load_turns(samples)
        queries, skipped = load_queries(samples, turns)
        batches = [
            chunk
            for _, conversation in groupby(turns, key=lambda turn: turn.sample_id)
            for chunk in _chunks(list(conversation), batch_size)
        ]
        step = max(1, len(turns) // warmup) if warmup else 1
        warmup_batch = [replace(turn, sample_id="warm-up") for turn in turns[:batch_size]]
        return cls(turns, batches, queries, skipped, turns[::step][:warmup] if warmup else [], warmup_batch)


def _chunks(items: list[Turn], size: int) -> list[list[Turn]]:
    return [items[start : start + size] for start in range(0, len(items), size)]


def content_of(turn: Turn) -> str:
    return f"{turn.speaker}: {turn.text}"


@dataclass
class Side:
    """One system's run: capture throughput, recall latency and recall@k, with the machine's load."""

    name: str
    setup: dict[str, Any]
    capture_s: float = 0.0
    turns: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    scores: dict[int, list[float]] = field(default_factory=lambda: {k: [] for k in KS})
    load_average: dict[str, list[float]] = field(default_factory=dict)

    def capture(self, workload: Workload, store: Callable[[list[Turn]], list[str]]) -> dict[str, list[str]]:
        """Store every batch through ``store`` (which returns one memory id per turn), after the
        warm-up batch; the turns of each memory id."""
        turns_of: dict[str, list[str]] = {}
        store(workload.warmup_batch)
        batches = workload.batches
        self.load_average["before_capture"] = load_average()
        start = time.perf_counter()
        for batch in tqdm(batches, desc=f"{self.name} capture", unit="batch"):
            ids = store(batch)
            if len(ids) != len(batch):
                raise RuntimeError(f"{self.name} returned {len(ids)} ids for {len(batch)} turns")
            for turn, memory_id in zip(batch, ids):
                turns_of.setdefault(memory_id, []).append(turn.dia_id)
        self.capture_s = time.perf_counter() - start
        self.turns = sum(len(batch) for batch in batches)
        self.load_average["after_capture"] = load_average()
        return turns_of

    def recall(
        self,
        queries: Sequence[Query],
        turns_of: dict[str, list[str]],
        search: Callable[[str, str], list[str]],
    ) -> None:
        """Ask each query through ``search(namespace, question)`` (memory ids, best first), timed."""
        self.load_average["before_recall"] = load_average()
        for query in tqdm(queries, desc=f"{self.name} recall", unit="q"):
            start = time.perf_counter()
            ids = search(query.namespace, query.question)
            self.latencies_ms.append((time.perf_counter() - start) * 1000)
            ranked = [set(turns_of.get(memory_id, ())) for memory_id in ids]
            for k in KS:
                self.scores[k].append(recall_at(query.evidence, ranked, k))
        self.load_average["after_recall"] = load_average()

    def report(self) -> dict[str, Any]:
        return {
            "system": self.name,
            "setup": self.setup,
            "capture": {
                "turns": self.turns,
                "seconds": round(self.capture_s, 2),
                "turns_per_s": round(self.turns / self.capture_s, 1),
            },
            "recall_latency_ms": summary(self.latencies_ms, 95, 99),
            "recall_at": {f"R@{k}": round(statistics.fmean(values), 3) for k, values in self.scores.items()},
            "load_average": self.load_average,
        }


def warm(turns: Sequence[Turn], search: Callable[[str, str], list[str]]) -> None:
    """Recalls of conversation turns, not measured: JIT, caches and lazy loading settle first."""
    for turn in tqdm(turns, desc="warm-up", unit="q"):
        search(namespace_of(turn.sample_id), turn.text)
