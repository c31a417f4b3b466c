"""The ``hippograph`` command: serve, worker, mcp, init, consolidate, status, dump, sweep, export, import,
keys, schema; each group of commands in a module of its own."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable, Sequence

from hippograph import __version__
from hippograph.cli import backup, keys, schema, serve, store, worker
from hippograph.kernel.config import Settings, SettingsError
from hippograph.kernel.errors import HippographError

LONG_RUNNING = frozenset({"serve", "mcp"})


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="hippograph", description="Long-term memory for AI agents.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument(
        "--log-level", help="DEBUG, INFO, WARNING... (default: INFO for serve and mcp, WARNING for the others)"
    )
    commands = parser.add_subparsers(dest="command", required=True)
    for group in (serve, worker, store, backup, keys, schema):
        group.add_commands(commands)

    args = parser.parse_args(argv)
    # A one-shot command prints its result; the store's and the models' progress lines are a server's.
    level = args.log_level or ("INFO" if args.command in LONG_RUNNING else "WARNING")
    logging.basicConfig(level=level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    if args.command == "schema":
        return schema.run(args)
    try:
        settings = Settings.from_env().with_overrides(
            data_dir=args.data_dir,
            heap=args.heap,
            neo4j_uri=args.neo4j_uri,
            host=getattr(args, "host", None),
            port=getattr(args, "port", None) if args.command == "serve" else None,
        )
    except SettingsError as error:
        print(f"hippograph {args.command}: {error}", file=sys.stderr)
        return 2
    run: Callable[[Settings, argparse.Namespace], int] = args.run
    try:
        return run(settings, args)
    except HippographError as error:
        print(f"hippograph {args.command}: {error.message}", file=sys.stderr)
        return 2
    except Exception as error:  # the store would not open, most often: one line, not a trace
        logging.getLogger(__name__).debug("command failed", exc_info=True)
        print(f"hippograph {args.command}: {_reason(error)}", file=sys.stderr)
        return 1


def _reason(error: BaseException) -> str:
    """The innermost message of a failure, on one line (the JVM's own is several)."""
    while error.__cause__ is not None:
        error = error.__cause__
    lines = str(error).strip().splitlines() or [type(error).__name__]
    return lines[0]
