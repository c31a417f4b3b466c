"""What two of the probe's holes cost to close, side by side in one process, interleaved.

- Introspection within the cost budget: parsing and refusing 3,000 aliased ``__schema``
  selections, against executing one such selection, which is what each alias cost before.
- The bundle's excision of every field: ``render_bundle`` of ten 1,000-character episodes with
  the excision, and with it patched out.

    python bench/holes.py [--rounds 50]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime

from harness import REPO, load_average, machine, summary

sys.path.insert(0, str(REPO / "src"))

from graphql import execute, parse
from hippograph.api.budget import document_refusals
from hippograph.api.schema import schema
from hippograph.kernel.config import Limits
from hippograph.kernel.model import Episode
from hippograph.recall import bundle
from hippograph.recall.request import RecallHit

SELECTION = "__schema { types { name fields { name type { name ofType { name } } } } }"
ALIASES = 3000
WORDS = "Caroline moved to Lisbon in spring and took the tram to the river every morning before work."


def _refusal() -> float:
    """What the server does with the document before it refuses it: parse it, then judge it."""
    limits = Limits()
    text = "{ " + " ".join(f"s{i}: {SELECTION}" for i in range(ALIASES)) + " }"
    start = time.perf_counter()
    errors = document_refusals(parse(text), limits.max_query_depth, limits.max_cost)
    elapsed = time.perf_counter() - start
    assert errors and "cost" in errors[0].message
    return elapsed


def _one_selection() -> float:
    document = parse("{ " + SELECTION + " }")
    start = time.perf_counter()
    result = execute(schema.graphql_schema, document)
    elapsed = time.perf_counter() - start
    assert not result.errors
    return elapsed


def _episode(index: int) -> Episode:
    at = datetime(2024, 5, 1, tzinfo=UTC)
    content = f"Caroline: {WORDS * 11}"[:1000]
    return Episode(
        f"01JD3V7ZQ8M2K5X9T4R6W1N{index:03d}", "bench", content, "user", "Caroline", "s1", at, at, "h", 0.5,
        False, [], [], 0, None, "active", True, None,
    )  # fmt: skip


def _render(hits: list[RecallHit]) -> float:
    start = time.perf_counter()
    bundle.render_bundle(hits, (), ["keyword", "vector"], [])
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    hits = [RecallHit(_episode(i), 1.0, ()) for i in range(10)]
    excised = bundle._excised
    times: dict[str, list[float]] = {"refuse 3000 aliases": [], "execute 1 alias": [], "with": [], "without": []}
    arms: list[tuple[str, Callable[[], float]]] = [
        ("refuse 3000 aliases", _refusal),
        ("execute 1 alias", _one_selection),
        ("with", lambda: _render(hits)),
        ("without", lambda: _render(hits)),
    ]
    for round_ in range(args.rounds):
        for name, run in arms if round_ % 2 else reversed(arms):
            bundle._excised = (lambda value: value) if name == "without" else excised  # type: ignore[assignment]
            times[name].append(run() * 1000)
    bundle._excised = excised  # type: ignore[assignment]
    report = {name: summary(values, 95) for name, values in times.items()}
    report["ratios"] = {
        "refusal / one executed alias": round(
            report["refuse 3000 aliases"]["median"] / report["execute 1 alias"]["median"], 2
        ),
        "bundle with / without excision": round(report["with"]["median"] / report["without"]["median"], 2),
    }
    print(json.dumps({"ms": report, "machine": machine(), "load": load_average()}, indent=2))


if __name__ == "__main__":
    main()
