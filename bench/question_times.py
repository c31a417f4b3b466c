"""Recall reads a question's time only when it could name one (extraction/when.py, may_name_time):
how many texts that skips, and whether the whole spaCy pass would have found a time in any text
it skips (it must not: the skip is only worth having if it changes no window).

The texts: the LoCoMo questions and turns, the labelled time sentences (bench/data/time_gold.jsonl)
and the held-out ones (time_heldout.jsonl), and the WNUT17 test documents (another domain,
unlabelled for time). Per set: texts, skipped, and skipped texts in which the whole pass finds a
time (listed); and the CPU of the whole pass against the check, per text.

Run: .venv/bin/python bench/question_times.py [--out bench/results/question_times.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

from harness import load_turns, locomo_dev, machine
from locomo_recall import load_queries
from ner_wnut17 import read_conll, wnut17_test
from time_eval import GOLD

from hippograph.extraction.model import When
from hippograph.extraction.pipeline import Extractor
from hippograph.extraction.when import may_name_time, sentence_time

SAID = datetime(2023, 6, 1, tzinfo=UTC)


def corpora() -> dict[str, list[str]]:
    samples = json.loads(locomo_dev().read_text())
    turns = load_turns(samples)
    questions, _ = load_queries(samples, turns)
    return {
        "locomo_questions": [q.question for q in questions],
        "locomo_turns": [turn.text for turn in turns],
        "time_gold": _texts(GOLD),
        "time_heldout": _texts(GOLD.with_name("time_heldout.jsonl")),
        "wnut17": [document.text for document in read_conll(wnut17_test())],
    }


def _texts(labelled: Path) -> list[str]:
    return [json.loads(line)["text"] for line in labelled.read_text().splitlines() if line.strip()]


def whole_pass_time(extractor: Extractor, text: str) -> When | None:
    """The time the whole pass reads in ``text``: recall's, without the check."""
    for sentence in extractor.nlp(text).sents:
        said = sentence_time(sentence, SAID)
        if said is not None:
            return said
    return None


def cpu_ms(work: Callable[[], object]) -> float:
    started = time.thread_time()
    work()
    return (time.thread_time() - started) * 1000


def measure(extractor: Extractor, texts: list[str]) -> dict[str, Any]:
    skipped = [text for text in texts if not may_name_time(text)]
    missed = [(text, when) for text in skipped if (when := whole_pass_time(extractor, text)) is not None]
    whole = [cpu_ms(partial(extractor.nlp, text)) for text in texts]
    check = [cpu_ms(partial(may_name_time, text)) for text in texts]
    return {
        "texts": len(texts),
        "skipped": len(skipped),
        "skipped_share": round(len(skipped) / len(texts), 3),
        "skipped_with_a_time": [{"text": text, "time": str(when)} for text, when in missed],
        "whole_pass_cpu_ms": {"mean": round(statistics.mean(whole), 2), "median": round(statistics.median(whole), 2)},
        "check_cpu_ms": {"mean": round(statistics.mean(check), 3), "median": round(statistics.median(check), 3)},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    extractor = Extractor()
    results = {name: measure(extractor, texts) for name, texts in corpora().items()}
    for name, found in results.items():
        print(
            f"{name}: {found['texts']} texts, {found['skipped']} skipped ({found['skipped_share']:.1%}), "
            f"{len(found['skipped_with_a_time'])} of them with a time in the whole pass; "
            f"whole pass {found['whole_pass_cpu_ms']['mean']} ms, check {found['check_cpu_ms']['mean']} ms of CPU"
        )
    report = {"benchmark": "question_times", "date": datetime.now(UTC).isoformat(), "machine": machine(), **results}
    if args.out:
        args.out.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
