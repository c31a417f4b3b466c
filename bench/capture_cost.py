"""Where a ``captureBatch`` of 64 new items spends its time, by item size, in process.

Each batch is 64 texts of varied words (drawn at random, seeded, from the LoCoMo dev set's
vocabulary) of one size; the batch goes through ``capture`` as the API's captureBatch calls it,
on a fresh embedded store with consolidation off. The steps are timed around the service's own
functions, in process CPU seconds (less noisy than wall time on a shared machine) and wall
seconds: validate-sanitize-scrub-normalize (``clean``), stems (``stems``, part of the write),
embedding (``embed``), and the store's transaction (``write``, stems included).

``--stemmers`` compares the pure-Python Snowball stemmer (the ``snowballstemmer`` package, when
installed) with PyStemmer on the same texts, alternating ABAB, as a ratio of CPU seconds.

    python bench/capture_cost.py --sizes 100,1000,4000,16000,60000 [--rounds 2] [--stemmers]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

from harness import REPO, load_average, locomo_dev, write_result

from hippograph.capture import batch as capture_batch
from hippograph.capture import prepare, service
from hippograph.kernel.config import Settings
from hippograph.kernel.model import CaptureInput
from hippograph.runtime import open_runtime

BATCH = 64
# Each step's function, by the module that calls it.
STEPS: dict[tuple[ModuleType, str], str] = {
    (prepare, "prepare"): "clean",
    (capture_batch, "stems"): "stems",
    (service, "embed_or_none"): "embed",
    (service, "_write_deduplicating"): "write",
}


def vocabulary() -> list[str]:
    return sorted(set(re.findall(r"[A-Za-z']+", locomo_dev().read_text())))


def texts(words: list[str], size: int, count: int, rng: random.Random) -> list[str]:
    out = []
    for _ in range(count):
        parts: list[str] = []
        length = 0
        while length < size:
            word = rng.choice(words)
            parts.append(word)
            length += len(word) + 1
        out.append(" ".join(parts)[:size])
    return out


class StepClock:
    """CPU and wall seconds spent inside the capture service's steps, per step."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = defaultdict(float)
        self.wall: dict[str, float] = defaultdict(float)

    @contextmanager
    def installed(self) -> Iterator[None]:
        originals = {(module, name): getattr(module, name) for module, name in STEPS}
        for (module, name), step in STEPS.items():
            setattr(module, name, self._timed(originals[module, name], step))
        try:
            yield
        finally:
            for (module, name), original in originals.items():
                setattr(module, name, original)

    def _timed(self, function: Callable[..., Any], step: str) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            cpu, wall = time.process_time(), time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                self.cpu[step] += time.process_time() - cpu
                self.wall[step] += time.perf_counter() - wall

        return timed


def batches(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    words = vocabulary()
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="capture-cost-") as directory:
        settings = Settings.from_env().with_overrides(data_dir=Path(directory), consolidation_processes=0)
        runtime = open_runtime(settings)
        try:
            runtime.warm_up()
            turns = settings.consolidation.context_turns
            parts = (runtime.store, runtime.embedder, runtime.clock, settings.limits, settings.dedup, turns)
            service.capture(*parts, [CaptureInput("warm-up text", namespace="cost", agent="bench")])
            for size in args.sizes:
                runs = []
                for _ in range(args.rounds):
                    items = [CaptureInput(t, namespace="cost", agent="bench") for t in texts(words, size, BATCH, rng)]
                    clock = StepClock()
                    cpu, wall = time.process_time(), time.perf_counter()
                    with clock.installed():
                        service.capture(*parts, items, refuse_items=True)
                    runs.append(
                        {
                            "cpu_s": time.process_time() - cpu,
                            "wall_s": time.perf_counter() - wall,
                            "steps_cpu_s": dict(clock.cpu),
                            "steps_wall_s": dict(clock.wall),
                        }
                    )
                results[str(size)] = {
                    "median_wall_s": round(statistics.median(r["wall_s"] for r in runs), 2),
                    "median_cpu_s": round(statistics.median(r["cpu_s"] for r in runs), 2),
                    "items_per_cpu_s": round(BATCH / statistics.median(r["cpu_s"] for r in runs), 1),
                    "steps_cpu_s": {
                        s: round(statistics.median(r["steps_cpu_s"][s] for r in runs), 2) for s in STEPS.values()
                    },
                    "runs": runs,
                }
                print(size, json.dumps({k: v for k, v in results[str(size)].items() if k != "runs"}), flush=True)
        finally:
            runtime.close()
    return results


def stemmers(args: argparse.Namespace) -> dict[str, Any]:
    import Stemmer
    from snowballstemmer.english_stemmer import EnglishStemmer

    word = re.compile(r"\w+", re.UNICODE)
    rng = random.Random(args.seed)
    batch = [word.findall(t.casefold()) for t in texts(vocabulary(), max(args.sizes), BATCH, rng)]
    seconds: dict[str, list[float]] = defaultdict(list)
    stemmed: dict[str, list[list[str]]] = {}
    for round_ in range(args.rounds * 2):
        pair = [("python", EnglishStemmer()), ("c", Stemmer.Stemmer("english"))]
        for name, stemmer in pair if round_ % 2 == 0 else pair[::-1]:
            cpu = time.process_time()
            stemmed[name] = [stemmer.stemWords(words) for words in batch]
            seconds[name].append(time.process_time() - cpu)
    if stemmed["python"] != stemmed["c"]:
        raise SystemExit("the two stemmers disagree on these texts")
    python, c = statistics.median(seconds["python"]), statistics.median(seconds["c"])
    return {
        "cpu_s_per_batch": {"python": round(python, 3), "c": round(c, 3)},
        "ratio_c_to_python": round(c / python, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--sizes", type=lambda s: [int(x) for x in s.split(",")], default=[100, 1000, 4000, 16000, 60000]
    )
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--stemmers", action="store_true", help="compare the two Snowball stemmers only")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "capture_cost.json")
    args = parser.parse_args()
    load_before = load_average()
    measured = stemmers(args) if args.stemmers else batches(args)
    result = write_result(args.out, measured, load_before)
    print(json.dumps(result["result"] if args.stemmers else result["run"], indent=2))


if __name__ == "__main__":
    main()
