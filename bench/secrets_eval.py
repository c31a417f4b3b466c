"""Credential scrubbing measured on generated corpora: ``bench/secrets/corpus.jsonl`` (named formats),
``bench/secrets/dev.jsonl`` and ``bench/secrets/heldout.jsonl`` (formats nobody listed, see unlisted.py).

For every sample, ``scrub_credentials`` runs over the text and:

* a secret **leaks** when any 8-character stretch of it (the whole of it, if shorter) is still in
  the scrubbed text: a partial redaction that leaves half a key readable is a leak (a stretch the
  text also holds outside the secret, such as the base64 of "-----BEGIN ", does not count);
* a look-alike (``neg:*``) is **over-redacted** when its text changes at all;
* a format is **covered** when it has samples and none of its secrets leaked. A sample can hold
  secrets of two formats (``two_adjacent_secrets``): each secret counts for its own format.

    .venv/bin/python bench/secrets_eval.py                    # table, then JSON on the last line
    .venv/bin/python bench/secrets_eval.py --corpus other.jsonl --json-out results.json
    .venv/bin/python bench/secrets_eval.py --layers rules,keyword      # only these layers
    .venv/bin/python bench/secrets_eval.py --ablation --corpus bench/secrets/dev.jsonl --corpus ...
    .venv/bin/python bench/secrets_eval.py --engine detect-secrets --corpus bench/secrets/dev.jsonl
    mkdir /tmp/scrub-c99f265 && git archive c99f265 src extract | tar -x -C /tmp/scrub-c99f265   # as it was
    .venv/bin/python bench/secrets_eval.py --speed --before /tmp/scrub-c99f265   # ms per 1,000 characters
    .venv/bin/python bench/secrets_eval.py --speed --size 60000 --before /tmp/scrub-c99f265   # texts of 60,000

Layers (``kernel.text.scrub.LAYERS``): rules (today's named formats), blocks, decode, assignment,
keyword, entropy, placeholders. ``--ablation`` scores rules alone, rules plus each layer, all layers,
and all but each layer.

Regenerate the corpus first if the generator changed: ``python bench/secrets/generate.py``.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import re
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

# A module, not its names: --speed-worker imports an older checkout's scrubber, which has no layers.
from harness import locomo_dev

from hippograph.kernel.text import scrub as scrubbing

HERE = Path(__file__).resolve().parent
WINDOW = 8
MARKER = re.compile(r"\[REDACTED:[a-z0-9_]+\]")


def leaked(secret: str, scrubbed: str, elsewhere: str = "") -> bool:
    """Whether a window of ``secret`` survives in ``scrubbed``. A window that the text also holds
    outside the secret (``elsewhere``) proves nothing: base64 of "-----BEGIN " opens a kept
    certificate as well as a redacted key."""
    # A marker names its kind ("[REDACTED:rubygems_api_key]"), which may repeat a token's prefix.
    scrubbed = MARKER.sub("\0", scrubbed)
    width = min(WINDOW, len(secret))
    windows = (secret[i : i + width] for i in range(len(secret) - width + 1))
    return any(window in scrubbed and window not in elsewhere for window in windows)


Scrubber = Callable[[str], str]


def scrubber(layers: frozenset[str]) -> Scrubber:
    return lambda text: scrubbing.scrub_credentials(text, layers).text


def detect_secrets_scrubber() -> Scrubber:
    """Yelp's detect-secrets with its default plugins, each value it reports replaced in the text."""
    from detect_secrets.core.scan import _process_line_based_plugins
    from detect_secrets.settings import default_settings

    def scrub(text: str) -> str:
        with default_settings():
            lines = list(enumerate(text.split("\n"), 1))
            found = {s.secret_value for s in _process_line_based_plugins(lines, filename="memory.txt")}
        for value in sorted((v for v in found if v), key=len, reverse=True):
            text = text.replace(value, "[REDACTED:detect_secrets]")
        return text

    return scrub


def evaluate(rows: list[dict[str, Any]], scrub: Scrubber | None = None) -> dict[str, Any]:
    scrub = scrub or scrubber(scrubbing.ALL_LAYERS)
    kinds: dict[str, str] = {}
    secrets: Counter[str] = Counter()
    leaks: Counter[str] = Counter()
    leak_examples: dict[str, list[str]] = defaultdict(list)
    negatives: Counter[str] = Counter()
    over: Counter[str] = Counter()
    over_examples: dict[str, list[str]] = defaultdict(list)
    started = time.perf_counter()
    for row in rows:
        text: str = row["text"]
        kinds[row["format"]] = row.get("kind", "named")
        scrubbed = scrub(text)
        if row["negative"]:
            negatives[row["format"]] += 1
            if scrubbed != text:
                over[row["format"]] += 1
                over_examples[row["format"]].append(scrubbed[:160])
            continue
        for span in row["secrets"]:
            fmt = span["format"]
            secrets[fmt] += 1
            elsewhere = text[: span["start"]] + "\0" + text[span["end"] :]
            if leaked(text[span["start"] : span["end"]], scrubbed, elsewhere):
                leaks[fmt] += 1
                leak_examples[fmt].append(scrubbed[:200])
    elapsed = time.perf_counter() - started
    covered = sorted(fmt for fmt in secrets if leaks[fmt] == 0)
    total_negatives = sum(negatives.values())
    by_kind: dict[str, dict[str, int]] = defaultdict(
        lambda: {"formats": 0, "secrets": 0, "leaked": 0, "formats_leaking": 0}
    )
    for fmt, count in secrets.items():
        row = by_kind[kinds[fmt]]
        row["formats"] += 1
        row["secrets"] += count
        row["leaked"] += leaks[fmt]
        row["formats_leaking"] += leaks[fmt] > 0
    total_secrets = sum(secrets.values())
    return {
        "samples": len(rows),
        "seconds": round(elapsed, 3),
        "formats": len(secrets),
        "formats_covered": len(covered),
        "secrets": sum(secrets.values()),
        "secrets_leaked": sum(leaks.values()),
        "leak_pct": round(100 * sum(leaks.values()) / total_secrets, 2) if total_secrets else 0.0,
        "by_kind": dict(sorted(by_kind.items())),
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
    lines += ["", "| kind | formats | formats leaking | secrets | leaked |", "|---|---:|---:|---:|---:|"]
    lines += [
        f"| {kind} | {r['formats']} | {r['formats_leaking']} | {r['secrets']} | {r['leaked']} |"
        for kind, r in result["by_kind"].items()
    ]
    lines += [
        "",
        f"formats covered (0 leaks): {result['formats_covered']} of {result['formats']}",
        f"secrets leaked: {result['secrets_leaked']} of {result['secrets']} ({result['leak_pct']} %)",
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


def ablation_rows() -> list[tuple[str, frozenset[str]]]:
    generic = [layer for layer in scrubbing.LAYERS if layer != "rules"]
    rows = [("rules only (before)", frozenset({"rules"}))]
    rows += [(f"rules + {layer}", frozenset({"rules", layer})) for layer in generic]
    rows += [("all layers", scrubbing.ALL_LAYERS)]
    rows += [(f"all but {layer}", scrubbing.ALL_LAYERS - {layer}) for layer in scrubbing.LAYERS]
    return rows


def ablation(corpora: dict[str, list[dict[str, Any]]]) -> str:
    names = list(corpora)
    header = "| layers | " + " | ".join(f"{n}: leaked | {n}: look-alikes changed" for n in names) + " |"
    lines = [header, "|---|" + "---:|---:|" * len(names)]
    for label, layers in ablation_rows():
        cells = []
        for name in names:
            r = evaluate(corpora[name], scrubber(layers))
            cells.append(f"{r['secrets_leaked']}/{r['secrets']} ({r['leak_pct']} %)")
            cells.append(f"{r['negatives_over_redacted']}/{r['negatives']} ({r['over_redaction_pct']} %)")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def locomo_chunks(size: int = 1000, limit: int = 200) -> list[str]:
    """Conversation turns of the shared LoCoMo file, joined and cut into ``size``-character texts."""
    conversations = json.loads(locomo_dev().read_text(encoding="utf-8"))
    turns = [
        turn["text"]
        for conversation in conversations
        for key, session in conversation["conversation"].items()
        if key.startswith("session_") and isinstance(session, list)
        for turn in session
    ]
    text = " ".join(turns)
    return [text[i : i + size] for i in range(0, len(text) - size, size)][:limit]


def corpus_chunks(rows: list[dict[str, Any]], size: int = 1000) -> list[str]:
    """The corpus texts joined by newlines and cut into ``size``-character texts."""
    text = "\n".join(row["text"] for row in rows)
    return [text[i : i + size] for i in range(0, len(text) - size, size)]


def speed_worker(texts_path: Path, layers: str) -> None:
    """Scrub every text of ``texts_path`` once (after a warm-up) and print ms per 1,000 characters.

    Runs in a child process so that the scrubber of another checkout (``--before``) is measured the
    same way as this one: ``PYTHONPATH`` decides which package is imported.
    """
    texts: dict[str, list[str]] = json.loads(texts_path.read_text(encoding="utf-8"))
    if layers == "default":
        run = scrubbing.scrub_credentials
    else:
        run = scrubber(frozenset(scrubbing.ALL_LAYERS if layers == "all" else layers.split(",")))
    for chunks in texts.values():
        for chunk in chunks[:5]:
            run(chunk)
    timings: dict[str, list[float]] = {}
    for name, chunks in texts.items():
        timings[name] = []
        for chunk in chunks:
            started = time.perf_counter()
            run(chunk)
            timings[name].append((time.perf_counter() - started) * 1000 * 1000 / len(chunk))
    print(json.dumps(timings))


def speed(texts: dict[str, list[str]], before: Path | None, rounds: int = 5) -> str:
    """Milliseconds per 1,000 characters of each configuration, in child processes taking turns in
    shuffled order, so that the noise of a shared machine falls on all of them alike."""
    import os
    import subprocess
    import tempfile

    here = HERE.parent / "src"
    configs = {"rules only": (here, "rules"), "all layers (after)": (here, "all")}
    if before is not None:
        configs = {f"before ({before.name})": (before / "src", "default")} | configs
    samples: dict[tuple[str, str], list[float]] = defaultdict(list)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as handle:
        json.dump(texts, handle)
    order = list(configs.items())
    for _ in range(rounds):
        random.shuffle(order)
        for label, (source, layers) in order:
            env = os.environ | {"PYTHONPATH": str(source)}
            command = [sys.executable, __file__, "--speed-worker", handle.name, "--layers", layers]
            out = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout
            for name, values in json.loads(out.splitlines()[-1]).items():
                samples[(name, label)].extend(values)
    Path(handle.name).unlink()
    first = next(iter(configs))
    lines = [f"| text | scrubber | median ms / 1,000 chars | p95 | median / {first} |", "|---|---|---:|---:|---:|"]
    for name in texts:
        base = statistics.median(samples[(name, first)])
        for label in configs:
            values = sorted(samples[(name, label)])
            median = statistics.median(values)
            p95 = values[int(0.95 * (len(values) - 1))]
            lines.append(f"| {name} | {label} | {median:.2f} | {p95:.2f} | {median / base:.2f} |")
    return "\n".join(lines)


def load(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as corpus:
        return [json.loads(line) for line in corpus if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, action="append", help="repeatable; default: corpus.jsonl")
    parser.add_argument("--layers", default="all", help="comma-separated layers, or 'all'")
    parser.add_argument("--engine", choices=["hippograph", "detect-secrets"], default="hippograph")
    parser.add_argument("--ablation", action="store_true", help="score every layer alone and left out")
    parser.add_argument("--speed", action="store_true", help="ms per 1,000 characters, before and after")
    parser.add_argument("--before", type=Path, help="with --speed: a checkout of the scrubber to compare with")
    parser.add_argument("--size", type=int, default=1000, help="with --speed: characters a text")
    parser.add_argument("--speed-worker", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--json-out", type=Path, help="also write the JSON result here")
    args = parser.parse_args()
    if args.speed_worker:
        speed_worker(args.speed_worker, args.layers)
        return
    paths = args.corpus or [HERE / "secrets" / "corpus.jsonl"]
    corpora = {path.stem: load(path) for path in paths}
    if args.ablation:
        print(ablation(corpora))
        return
    if args.speed:
        size = args.size
        texts = {"LoCoMo turns": locomo_chunks(size)} | {
            f"{n}.jsonl": corpus_chunks(r, size) for n, r in corpora.items()
        }
        print(speed(texts, args.before))
        return
    layers = scrubbing.ALL_LAYERS if args.layers == "all" else frozenset(args.layers.split(","))
    unknown = layers - scrubbing.ALL_LAYERS
    if unknown:
        parser.error(f"unknown layers {sorted(unknown)}; choose from {', '.join(scrubbing.LAYERS)}")
    scrub = detect_secrets_scrubber() if args.engine == "detect-secrets" else scrubber(layers)
    for rows in corpora.values():
        result = evaluate(rows, scrub)
        print(table(result))
        summary = json.dumps(result, sort_keys=True)
        print(summary)
        if args.json_out:
            args.json_out.write_text(summary + "\n", encoding="utf-8")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
