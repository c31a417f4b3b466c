"""Commands that work on the store in place: ``init``, ``consolidate``, ``status``, ``dump`` and
``sweep``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from hippograph.cli.options import store_flags
from hippograph.kernel.config import Settings
from hippograph.store.rows import CENSUS_NAMESPACE, CENSUS_RELATIONSHIPS


def add_commands(commands: Any) -> None:
    init = commands.add_parser("init", help="create the schema (constraints and indexes) and exit")
    store_flags(init)
    init.set_defaults(run=_init)

    consolidate = commands.add_parser("consolidate", help="derive entities, facts and relations from raw episodes")
    store_flags(consolidate)
    consolidate.add_argument("--namespace", help="only this namespace (default: all)")
    consolidate.add_argument("--limit", type=int, default=1_000_000, help="at most this many episodes")
    consolidate.add_argument(
        "--again", action="store_true", help="first requeue the namespace's consolidated and failed episodes"
    )
    consolidate.set_defaults(run=_consolidate)

    status = commands.add_parser("status", help="print consolidation status and a census of a namespace as JSON")
    store_flags(status)
    status.add_argument("--namespace", help="one namespace (default: all; the census needs one)")
    status.set_defaults(run=_status)

    dumper = commands.add_parser(
        "dump", help="print a namespace's derived graph as canonical JSON (ids replaced by stable keys), to compare two"
    )
    store_flags(dumper)
    dumper.add_argument("--namespace", required=True)
    dumper.set_defaults(run=_dump)

    sweeper = commands.add_parser(
        "sweep", help="run the sweeps once: event TTL, erasure past the recovery window, History retention"
    )
    store_flags(sweeper)
    sweeper.add_argument("--namespace", help="only this namespace (default: all)")
    sweeper.set_defaults(run=_sweep)


def _init(settings: Settings, args: argparse.Namespace) -> int:
    from hippograph.store import open_store

    store = open_store(settings)
    try:
        store.setup_schema()
    finally:
        store.close()
    print(f"schema ready ({store.dialect.name})")
    return 0


def _consolidate(settings: Settings, args: argparse.Namespace) -> int:
    from hippograph.consolidation.worker import consolidate, requeue
    from hippograph.runtime import open_runtime

    namespace, limit, again = args.namespace, args.limit, args.again
    runtime = open_runtime(settings)
    try:
        if again:
            if namespace is None:
                print("--again needs --namespace", file=sys.stderr)
                return 2
            print(f"requeued {requeue(runtime.store, namespace)} episodes", flush=True)
        report = consolidate(runtime, namespace=namespace, limit=limit, progress=True)
    finally:
        runtime.close()
    workers = f", workers {report.workers}" if report.workers == "starting" else ""
    print(f"consolidated {report.processed}, failed {report.failed}, remaining {report.remaining}{workers}")
    return 0 if report.failed == 0 else 1


def _status(settings: Settings, args: argparse.Namespace) -> int:
    import dataclasses
    import json

    from hippograph.consolidation.status import status
    from hippograph.embedding.store_record import exported_spec
    from hippograph.runtime import open_runtime

    namespace = args.namespace
    runtime = open_runtime(settings)
    try:
        report = dataclasses.asdict(status(runtime.store, runtime.clock, namespace))
        # The store's record (open_runtime made one if it had none): what an export names.
        report["embedding"] = exported_spec(runtime.store).name
        if namespace is not None:
            report["nodes"] = {
                r["label"]: r["count"] for r in runtime.store.read(CENSUS_NAMESPACE, namespace=namespace)
            }
            report["relationships"] = {
                r["type"]: r["count"] for r in runtime.store.read(CENSUS_RELATIONSHIPS, namespace=namespace)
            }
    finally:
        runtime.close()
    print(json.dumps(report, indent=2, sort_keys=True))
    return 0


def _dump(settings: Settings, args: argparse.Namespace) -> int:
    import json

    from hippograph.consolidation.canonical import dump
    from hippograph.store import open_store

    store = open_store(settings)
    try:
        print(json.dumps(dump(store, args.namespace), indent=1, sort_keys=True, default=str))
    finally:
        store.close()
    return 0


def _sweep(settings: Settings, args: argparse.Namespace) -> int:
    import dataclasses
    import json

    from hippograph.lifecycle.sweep import sweep
    from hippograph.runtime import open_runtime

    runtime = open_runtime(settings)
    try:
        report = sweep(runtime.store, runtime.clock, settings.lifecycle, settings.access, args.namespace)
    finally:
        runtime.close()
    print(json.dumps(dataclasses.asdict(report), sort_keys=True))
    return 0
