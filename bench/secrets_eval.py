"""Credential scrubbing measured on the generated corpus ``bench/secrets/corpus.jsonl``.

For every sample, ``scrub_credentials`` runs over the text and:

* a secret **leaks** when any 8-character stretch of it (the whole of it, if shorter) is still in
  the scrubbed text: a partial redaction that leaves half a key readable is a leak;
* a look-alike (``neg:*``) is **over-redacted** when its text changes at all;
* a format is **covered** when it has samples and none of its secrets leaked. A sample can hold
  secrets of two formats (``two_adjacent_secrets``): each secret counts for its own format.

    .venv/bin/python bench/secrets_eval.py                    # table, then JSON on the last line
    .venv/bin/python bench/secrets_eval.py --corpus other.jsonl --json-out results.json

Regenerate the corpus first if the generator changed: ``python bench/secrets/generate.py``.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from hippograph.kernel.text.scrub import scrub_credentials

HERE = Path(__file__).resolve().parent
WINDOW = 8
MARKER = re.compile(r"\[REDACTED:[a-z0-9_]+\]")


def leaked(secret: str, scrubbed: str) -> bool:
    # A marker names its kind ("[REDACTED:rubygems_api_key]"), which may repeat a token's prefix.
    scrubbed = MARKER.sub("\0", scrubbed)
    width = min(WINDOW, len(secret))
    return any(secret[i : i + width] in scrubbed for i in range(len(secret) - width + 1))


def evaluate(rows: list[dict[str, Any]]) -> dict[str, Any]:
    secrets: Counter[str] = Counter()
    leaks: Counter[str] = Counter()
    leak_examples: dict[str, list[str]] = defaultdict(list)
    negatives: Counter[str] = Counter()
    over: Counter[str] = Counter()
    over_examples: dict[str, list[str]] = defaultdict(list)
    started = time.perf_counter()
    for row in rows:
        text: str = row["text"]
        scrubbed = scrub_credentials(text).text
        if row["negative"]:
            negatives[row["format"]] += 1
            if scrubbed != text:
                over[row["format"]] += 1
                over_examples[row["format"]].append(scrubbed[:160])
            continue
        for span in row["secrets"]:
            fmt = span["format"]
            secrets[fmt] += 1
            if leaked(text[span["start"] : span["end"]], scrubbed):
                leaks[fmt] += 1
                leak_examples[fmt].append(scrubbed[:200])
    elapsed = time.perf_counter() - started
    covered = sorted(fmt for fmt in secrets if leaks[fmt] == 0)
    total_negatives = sum(negatives.values())
    return {
        "samples": len(rows),
        "seconds": round(elapsed, 3),
        "formats": len(secrets),
        "formats_covered": len(covered),
        "secrets": sum(secrets.values()),
        "secrets_leaked": sum(leaks.values()),
        "negatives": total_negatives,
        "negatives_over_redacted": sum(over.values()),
        "over_redaction_pct": round(100 * sum(over.values()) / total_negatives, 2) if total_negatives else 0.0,
        "per_format": {fmt: {"secrets": secrets[fmt], "leaked": leaks[fmt]} for fmt in sorted(secrets)},
        "per_negative": {fmt: {"samples": negatives[fmt], "changed": over[fmt]} for fmt in sorted(negatives)},
        "leak_examples": {fmt: examples[:3] for fmt, examples in leak_examples.items()},
        "over_redaction_examples": {fmt: examples[:3] for fmt, examples in over_examples.items()},
        "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}",
    }


def table(result: dict[str, Any]) -> str:
    lines = ["| format | secrets | leaked |", "|---|---:|---:|"]
    lines += [f"| {fmt} | {row['secrets']} | {row['leaked']} |" for fmt, row in result["per_format"].items()]
    lines += ["", "| look-alike | samples | changed |", "|---|---:|---:|"]
    lines += [f"| {fmt} | {row['samples']} | {row['changed']} |" for fmt, row in result["per_negative"].items()]
    lines += [
        "",
        f"formats covered (0 leaks): {result['formats_covered']} of {result['formats']}",
        f"secrets leaked: {result['secrets_leaked']} of {result['secrets']}",
        (
            f"over-redaction: {result['negatives_over_redacted']} of {result['negatives']} look-alikes"
            f" ({result['over_redaction_pct']} %)"
        ),
        f"{result['samples']} samples scrubbed in {result['seconds']} s",
    ]
    for title, key in (("leaks", "leak_examples"), ("over-redacted", "over_redaction_examples")):
        for fmt, examples in result[key].items():
            lines += [f"{title} {fmt}: {example!r}" for example in examples]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=HERE / "secrets" / "corpus.jsonl")
    parser.add_argument("--json-out", type=Path, help="also write the JSON result here")
    args = parser.parse_args()
    with args.corpus.open(encoding="utf-8") as corpus:
        rows = [json.loads(line) for line in corpus if line.strip()]
    result = evaluate(rows)
    print(table(result))
    summary = json.dumps(result, sort_keys=True)
    print(summary)
    if args.json_out:
        args.json_out.write_text(summary + "\n", encoding="utf-8")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
