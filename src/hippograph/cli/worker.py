"""``hippograph worker``: consolidation and the sweeps without HTTP, beside API servers started
with ``serve --no-consolidation``, any number of each over one Neo4j (docs/operations.md)."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
import time
from typing import Any

from hippograph.cli.options import store_flags
from hippograph.kernel.config import Settings
from hippograph.kernel.validation import validate_namespace

log = logging.getLogger(__name__)

# Episodes per drain: between two drains the worker sees a stop signal and whether a sweep is due.
_DRAIN = 256


def add_commands(commands: Any) -> None:
    worker = commands.add_parser(
        "worker", help="consolidate and sweep in the background, without HTTP (beside serve --no-consolidation)"
    )
    store_flags(worker)
    worker.add_argument(
        "--namespace",
        action="append",
        dest="namespaces",
        metavar="NS",
        help="consolidate and sweep only this namespace (repeat for several); all of them by default",
    )
    worker.set_defaults(run=_worker)


def _worker(settings: Settings, args: argparse.Namespace) -> int:
    from hippograph.consolidation.worker import drain
    from hippograph.lifecycle.sweep import sweep
    from hippograph.runtime import open_runtime

    interval = settings.consolidation.interval_s
    if interval <= 0:
        print(
            "hippograph worker: HIPPOGRAPH_CONSOLIDATION_INTERVAL_S is 0; a worker would never look for work",
            file=sys.stderr,
        )
        return 2
    for namespace in args.namespaces or []:
        validate_namespace(namespace)  # a misspelt name would leave the worker idle, saying nothing
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    # None stands for every namespace: drain and sweep then take whatever is due anywhere.
    namespaces: list[str | None] = list(args.namespaces or [None])
    runtime = open_runtime(settings)
    print(f"hippograph worker consolidating ({runtime.store.dialect.name})", flush=True)
    sweep_every = settings.lifecycle.sweep_interval_s
    next_sweep = time.monotonic() + sweep_every
    try:
        while not stop.is_set():
            busy = False
            try:
                busy = sum(sum(drain(runtime, namespace=ns, limit=_DRAIN)) for ns in namespaces) > 0
            except Exception:
                log.warning("consolidation failed; will retry", exc_info=True)
            if sweep_every > 0 and time.monotonic() >= next_sweep:
                try:
                    for ns in namespaces:
                        sweep(runtime.store, runtime.clock, settings.lifecycle, settings.access, ns)
                except Exception:
                    log.warning("sweep failed; will retry", exc_info=True)
                next_sweep = time.monotonic() + sweep_every
            if not busy:
                stop.wait(interval)
    finally:
        runtime.close()
    return 0
