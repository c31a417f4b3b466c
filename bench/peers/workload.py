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
    def load(cls, locomo: Path, batch_size: int, warmup: int, conversations: int | None = None) -> Workload:
        samples = json.loads(locomo.read_text())[:conversations]
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
class System:
    """One system as the benchmark drives it: ``store`` a batch of one conversation's turns (one
    memory id back per turn), ``search(namespace, question)`` (memory ids, best first)."""

    name: str
    setup: dict[str, Any]
    store: Callable[[list[Turn]], list[str]]
    search: Callable[[str, str], list[str]]
    extra: dict[str, Callable[[], Any]] = field(default_factory=dict)  # figures read once at the end


@dataclass
class Side:
    """One system's measurements: capture throughput, recall latency and recall@k, and the
    machine's load while it was measured."""

    system: System
    capture_s: float = 0.0
    turns: int = 0
    turns_of: dict[str, list[str]] = field(default_factory=dict)  # memory id -> LoCoMo turn ids
    latencies_ms: list[float] = field(default_factory=list)
    scores: dict[int, list[float]] = field(default_factory=lambda: {k: [] for k in KS})
    loads: dict[str, list[float]] = field(default_factory=lambda: {"capture": [], "recall": []})  # 1-minute

    def capture(self, batch: list[Turn]) -> None:
        self.loads["capture"].append(load_average()[0])
        start = time.perf_counter()
        ids = self.system.store(batch)
        self.capture_s += time.perf_counter() - start
        if len(ids) != len(batch):
            raise RuntimeError(f"{self.system.name} returned {len(ids)} ids for {len(batch)} turns")
        self.turns += len(batch)
        for turn, memory_id in zip(batch, ids):
            self.turns_of.setdefault(memory_id, []).append(turn.dia_id)

    def recall(self, query: Query) -> None:
        self.loads["recall"].append(load_average()[0])
        start = time.perf_counter()
        ids = self.system.search(query.namespace, query.question)
        self.latencies_ms.append((time.perf_counter() - start) * 1000)
        ranked = [set(self.turns_of.get(memory_id, ())) for memory_id in ids]
        for k in KS:
            self.scores[k].append(recall_at(query.evidence, ranked, k))

    def report(self) -> dict[str, Any]:
        return {
            "system": self.system.name,
            "setup": self.system.setup,
            "capture": {
                "turns": self.turns,
                "seconds": round(self.capture_s, 2),
                "turns_per_s": round(self.turns / self.capture_s, 1),
            },
            "recall_latency_ms": summary(self.latencies_ms, 95, 99),
            "recall_at": {f"R@{k}": round(statistics.fmean(values), 3) for k, values in self.scores.items()},
            "load_average_1min": {
                phase: {"min": min(loads), "median": statistics.median(loads), "max": max(loads)}
                for phase, loads in self.loads.items()
            },
            **{name: read() for name, read in self.system.extra.items()},
        }


def compare(systems: Sequence[System], workload: Workload, interleaved: bool) -> list[dict[str, Any]]:
    """Warm each system up (a batch captured, ``workload.warmup`` recalls of turns), then capture
    every batch and ask every query, timed. Interleaved: each batch, then each query, goes to every
    system in turn, so that a machine whose load drifts loads all of them alike; otherwise one
    system does all of its work, then the next."""
    sides = [Side(system) for system in systems]
    for side in sides:
        side.system.store(workload.warmup_batch)
        for turn in tqdm(workload.warmup, desc=f"{side.system.name} warm-up", unit="q"):
            side.system.search(namespace_of(turn.sample_id), turn.text)
    rounds = [sides] if interleaved else [[side] for side in sides]
    for group in rounds:
        names = "+".join(side.system.name for side in group)
        for batch in tqdm(workload.batches, desc=f"{names} capture", unit="batch"):
            for side in group:
                side.capture(batch)
    for group in rounds:
        names = "+".join(side.system.name for side in group)
        for query in tqdm(workload.queries, desc=f"{names} recall", unit="q"):
            for side in group:
                side.recall(query)
    return [side.report() for side in sides]
