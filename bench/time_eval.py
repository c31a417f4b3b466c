"""Relative and partial dates: how often extraction's resolver (hippograph.extraction.when) gives
the valid time our labelled set states (bench/data/time_gold.jsonl, written by
bench/data/time_gold_generate.py), per family of expression.

* exact: start, end and precision all as labelled (a sentence labelled without a time must get
  none);
* at precision: the precision as labelled, the start inside the labelled start's period at that
  precision, and an end where the label has one;
* ms: the resolver's time per sentence, after spaCy's parse (median and p95).

Run: .venv/bin/python bench/time_eval.py [--gold bench/data/time_gold.jsonl] [--show-errors]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict
from datetime import datetime
from pathlib import Path
from typing import Any

from hippograph.extraction.model import When
from hippograph.extraction.nlp import load_pipeline
from hippograph.extraction.when import sentence_time

GOLD = Path(__file__).parent / "data" / "time_gold.jsonl"


def _at(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def _truncate(value: datetime, precision: str) -> datetime:
    day = value.replace(hour=0, minute=0, second=0, microsecond=0)
    if precision == "year":
        return day.replace(month=1, day=1)
    if precision in ("month", "season"):
        return day.replace(day=1)
    return day


def judge(row: dict[str, Any], when: When | None) -> tuple[bool, bool]:
    """(exact, at precision) for one labelled sentence."""
    start, end, precision = _at(row["start"]), _at(row["end"]), row["precision"]
    if precision is None:
        return when is None, when is None
    if when is None or str(when.precision) != precision:
        return False, False
    exact = when.start == start and when.end == end
    starts = (when.start is None) == (start is None) and (
        start is None or when.start is None or _truncate(when.start, precision) == start
    )
    return exact, starts and (when.end is None) == (end is None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gold", type=Path, default=GOLD)
    parser.add_argument("--show-errors", action="store_true")
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.gold.read_text().splitlines() if line.strip()]
    nlp = load_pipeline()
    docs = list(nlp.pipe(row["text"] for row in rows))
    sentence_time(docs[0][:], _at(rows[0]["reference"]))  # type: ignore[arg-type]  # warm dateparser's caches
    by_family: dict[str, list[tuple[bool, bool]]] = defaultdict(list)
    ms: list[float] = []
    for row, doc in zip(rows, docs, strict=True):
        reference = _at(row["reference"])
        assert reference is not None
        began = time.perf_counter()
        when = sentence_time(doc[:], reference)
        ms.append((time.perf_counter() - began) * 1000)
        verdict = judge(row, when)
        by_family[row["family"]].append(verdict)
        if args.show_errors and not verdict[0]:
            print(f"  {row['id']}: {row['text']!r} @ {row['reference']}: want {row['start']}..{row['end']} "
                  f"{row['precision']}, got {when}")  # fmt: skip
    print(f"{'family':<18} {'n':>4} {'exact':>6} {'at precision':>13}")
    for family, verdicts in by_family.items():
        exact = sum(v[0] for v in verdicts) / len(verdicts)
        near = sum(v[1] for v in verdicts) / len(verdicts)
        print(f"{family:<18} {len(verdicts):>4} {exact:>6.3f} {near:>13.3f}")
    every = [v for verdicts in by_family.values() for v in verdicts]
    print(
        f"{'all':<18} {len(every):>4} {sum(v[0] for v in every) / len(every):>6.3f} "
        f"{sum(v[1] for v in every) / len(every):>13.3f}"
    )
    ms.sort()
    print(f"resolver ms per sentence: median {statistics.median(ms):.2f}, p95 {ms[int(0.95 * (len(ms) - 1))]:.2f}")


if __name__ == "__main__":
    main()
