"""``hippograph export`` and ``hippograph import``: a namespace out to a file and back, or episodes
captured from JSON Lines."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from hippograph.cli.options import store_flags
from hippograph.kernel.config import Settings
from hippograph.kernel.errors import HippographError


def add_commands(commands: Any) -> None:
    exporter = commands.add_parser(
        "export", help="write everything of a namespace (or all) to a JSON Lines file that `import` restores"
    )
    store_flags(exporter)
    exporter.add_argument("--namespace", help="only this namespace (default: all)")
    exporter.add_argument("-o", "--output", type=Path, help="the file (gzip when it ends in .gz; default: stdout)")
    exporter.set_defaults(run=_export)

    importer = commands.add_parser(
        "import", help="restore a file `export` wrote, or capture episodes from JSON Lines (CaptureInput fields)"
    )
    store_flags(importer)
    importer.add_argument(
        "file", type=Path, help='an export, or one capture per line, e.g. {"content": ..., "agent": ...}'
    )
    importer.set_defaults(run=_import)


def _import(settings: Settings, args: argparse.Namespace) -> int:
    from hippograph.backup.format import is_export

    return _restore(settings, args.file) if is_export(args.file) else _capture(settings, args.file)


def _export(settings: Settings, args: argparse.Namespace) -> int:
    from datetime import UTC, datetime

    from tqdm import tqdm

    from hippograph.backup.export import census, export
    from hippograph.kernel.errors import bad_input
    from hippograph.store import open_store

    namespace, output = args.namespace, args.output
    store = open_store(settings)
    try:
        namespaces, total = census(store, namespace)
        if namespace is not None and total == 0:
            raise bad_input(f"the store holds nothing of namespace {namespace!r}; nothing was exported")
        with tqdm(total=total, unit="node", disable=not sys.stderr.isatty()) as bar:
            report = export(store, namespaces, output, sys.stdout, datetime.now(UTC), bar.update)
    finally:
        store.close()
    nodes, relationships = sum(report.nodes.values()), sum(report.relationships.values())
    where = output if output is not None else "stdout"
    print(
        f"exported {len(namespaces)} namespaces ({nodes} nodes, {relationships} relationships) to {where}",
        file=sys.stderr if output is None else sys.stdout,
    )
    if report.skipped:
        print(
            f"left out {report.skipped} relationships to nodes written while the export ran; export again "
            "with no writers for an exact copy",
            file=sys.stderr,
        )
    return 0


def _restore(settings: Settings, path: Path) -> int:
    from tqdm import tqdm

    from hippograph.backup.restore import check, refuse_present, settle_embedding, write
    from hippograph.store import open_store

    plan = check(path)  # before the store opens: a bad file fails in a second, whatever the store
    store = open_store(settings)
    try:
        store.setup_schema()  # the file may be the first thing a new store holds
        refuse_present(store, plan)
        adopted = settle_embedding(store, plan)
        with tqdm(total=plan.records, unit="record", disable=not sys.stderr.isatty()) as bar:
            write(store, path, plan, bar.update)
    finally:
        store.close()
    nodes, relationships = sum(plan.nodes.values()), sum(plan.relationships.values())
    names = ", ".join(plan.namespaces)
    print(f"imported {nodes} nodes and {relationships} relationships into namespaces {names} from {path}")
    if adopted:
        # A server started before the import read the record it replaced, and embeds with that.
        print(
            f"the store's vectors are made with {plan.embedding.name} from now on, as the file's were: "
            "restart any server running on it"
        )
    return 0


def _capture(settings: Settings, path: Path) -> int:
    from collections import Counter

    from tqdm import tqdm

    from hippograph.capture.jsonl import read_captures
    from hippograph.capture.prepare import check_capture
    from hippograph.capture.service import capture
    from hippograph.kernel.errors import bad_input
    from hippograph.kernel.model import CaptureStatus
    from hippograph.runtime import open_runtime

    # Every line is read before the store opens (a file that is no JSON Lines creates nothing) and
    # checked before any is written (a bad one leaves the store as it was).
    try:
        with path.open(encoding="utf-8") as stream:
            lines = list(read_captures(stream))
    except HippographError as error:
        raise bad_input(f"{error.message}; nothing was imported") from error
    except UnicodeDecodeError:
        raise bad_input(f"{path} is not UTF-8 text; nothing was imported") from None
    if not lines:
        raise bad_input(f"{path} holds no captures; nothing was imported")
    runtime = open_runtime(settings)
    batch_size = settings.limits.max_batch
    parts = (runtime.store, runtime.embedder, runtime.clock, settings.limits, settings.dedup)
    statuses: Counter[CaptureStatus] = Counter()
    try:
        now = runtime.clock()
        for number, item in lines:
            try:
                check_capture(settings.limits, item, now)
            except HippographError as error:
                raise bad_input(f"line {number}: {error.message}; nothing was imported", line=number) from error
        with tqdm(total=len(lines), unit="episode", disable=not sys.stderr.isatty()) as bar:
            for start in range(0, len(lines), batch_size):
                batch = [item for _, item in lines[start : start + batch_size]]
                try:
                    outcomes = capture(*parts, settings.consolidation.context_turns, batch)
                except HippographError as error:
                    raise HippographError(
                        error.code,
                        f"{error.message}; lines up to {lines[start - 1][0] if start else 0} are stored, and "
                        "importing the file again skips them (a capture of stored content is a duplicate)",
                    ) from error
                statuses.update(outcome.status for outcome in outcomes)
                bar.update(len(batch))
    finally:
        runtime.close()
    print(
        f"imported {len(lines)} episodes from {path}: {statuses[CaptureStatus.CREATED]} new, "
        f"{statuses[CaptureStatus.DUPLICATE]} duplicates, {statuses[CaptureStatus.CORROBORATED]} corroborations"
    )
    return 0
