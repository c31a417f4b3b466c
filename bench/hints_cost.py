"""What prospective hints (extraction/hints.py) cost at consolidation: the CPU time of deriving an
episode's hints from its extraction, beside that of the extraction itself, and how many words
they are, on LoCoMo turns captured as ``bench/locomo_recall.py`` captures them
(``"{speaker}: {text}"``, said at the session's date).

    python bench/hints_cost.py [--conversations N] [--locomo FILE]

The extraction runs in this process, one turn at a time as a worker process would batch it (the
per-episode figure is the batch's divided by its turns); hints are derived with no entity
resolution (the names resolution adds are a few words).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from datetime import datetime
from pathlib import Path

from harness import REPO, load_turns, locomo_dev, machine

sys.path.insert(0, str(REPO / "src"))

from hippograph.extraction.hints import episode_hints, hint_rules
from hippograph.extraction.model import Turn
from hippograph.extraction.pipeline import Extractor

BATCH = 32


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--locomo", default=None)
    parser.add_argument("--conversations", type=int, default=1)
    args = parser.parse_args()
    samples = json.loads(Path(args.locomo or locomo_dev()).read_text())[: args.conversations]
    turns = [
        Turn(f"{t.speaker}: {t.text}", speaker=t.speaker, said_at=datetime.fromisoformat(t.occurred_at))
        for t in load_turns(samples)
    ]
    extractor = Extractor()
    extractor.extract_many(turns[:BATCH])  # loads spaCy, not counted
    hint_rules()
    extract_s, hint_ms, words = 0.0, [], []
    for start in range(0, len(turns), BATCH):
        batch = turns[start : start + BATCH]
        began = time.process_time()
        extractions = extractor.extract_many(batch)
        extract_s += time.process_time() - began
        for turn, extraction in zip(batch, extractions, strict=True):
            began = time.process_time()
            hints = episode_hints(turn.text, extraction)
            hint_ms.append((time.process_time() - began) * 1000)
            words.append(len(hints.split()))
    cuts = statistics.quantiles(hint_ms, n=20)
    print(
        json.dumps(
            {
                "machine": machine(),
                "turns": len(turns),
                "extraction_cpu_ms_per_episode": round(extract_s * 1000 / len(turns), 2),
                "hints_cpu_ms_per_episode": {
                    "mean": round(statistics.fmean(hint_ms), 3),
                    "median": round(statistics.median(hint_ms), 3),
                    "p95": round(cuts[18], 3),
                },
                "hint_words": {"mean": round(statistics.fmean(words), 1), "max": max(words)},
                "episodes_without_hints": sum(1 for w in words if w == 0),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
