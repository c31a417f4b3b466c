"""The ``hippograph`` command: serve, init, schema."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from hippograph.config import Settings


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="hippograph", description="Long-term memory for AI agents.")
    parser.add_argument("--log-level", default="INFO")
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="serve GraphQL (embedded ArcadeDB unless Neo4j is configured)")
    _store_flags(serve)
    serve.add_argument("--host", help="bind address (HIPPOGRAPH_HOST, default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (HIPPOGRAPH_PORT, default 8420)")

    init = commands.add_parser("init", help="create the schema (constraints and indexes) and exit")
    _store_flags(init)

    schema = commands.add_parser("schema", help="print the GraphQL schema (SDL)")
    schema.add_argument("--write", type=Path, help="write it to this file instead")

    args = parser.parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    if args.command == "schema":
        return _schema(args.write)
    settings = Settings.from_env().with_overrides(
        data_dir=args.data_dir,
        heap=args.heap,
        neo4j_uri=args.neo4j_uri,
        host=getattr(args, "host", None),
        port=getattr(args, "port", None),
    )
    return _serve(settings) if args.command == "serve" else _init(settings)


def _store_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", type=Path, help="embedded store directory (HIPPOGRAPH_DATA_DIR)")
    parser.add_argument("--heap", help="embedded engine Java heap, e.g. 1g (HIPPOGRAPH_HEAP)")
    parser.add_argument("--neo4j-uri", help="use this Neo4j instead of the embedded store (NEO4J_URI)")


def _serve(settings: Settings) -> int:
    import uvicorn

    from hippograph.api.app import create_app
    from hippograph.runtime import open_runtime

    runtime = open_runtime(settings)
    app = create_app(runtime, close_runtime_on_shutdown=True)
    print(f"Hippograph on http://{settings.host}:{settings.port}/graphql ({runtime.store.dialect.name})", flush=True)
    uvicorn.run(app, host=settings.host, port=settings.port, log_level="warning")
    return 0


def _init(settings: Settings) -> int:
    from hippograph.store import open_store

    store = open_store(settings)
    try:
        store.setup_schema()
    finally:
        store.close()
    print(f"schema ready ({store.dialect.name})")
    return 0


def _schema(target: Path | None) -> int:
    from hippograph.api.schema import schema_sdl

    if target is None:
        sys.stdout.write(schema_sdl())
    else:
        target.write_text(schema_sdl(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
