"""The ``hippograph`` command: serve, mcp, init, consolidate, export, import, status, sweep, keys, schema."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from hippograph.access.keys import KeyRole
from hippograph.kernel.config import Settings, SettingsError
from hippograph.kernel.errors import HippographError


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="hippograph", description="Long-term memory for AI agents.")
    parser.add_argument("--log-level", default="INFO")
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="serve GraphQL (embedded ArcadeDB unless Neo4j is configured)")
    _store_flags(serve)
    serve.add_argument("--host", help="bind address (HIPPOGRAPH_HOST, default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (HIPPOGRAPH_PORT, default 8420)")

    mcp = commands.add_parser(
        "mcp",
        help="serve the memory tools over MCP (stdio by default) on this store, or on a server given --url",
        description="The API key, when one is needed, comes from HIPPOGRAPH_API_KEY (never a flag: flags show in ps).",
    )
    _store_flags(mcp)
    mcp.add_argument("--url", help="use the Hippograph server at this URL instead of opening the store here")
    mcp.add_argument("--transport", choices=["stdio", "streamable-http"], default="stdio")
    mcp.add_argument("--host", help="streamable-http: bind address (default 127.0.0.1)")
    mcp.add_argument("--port", type=int, help="streamable-http: port (default 8421)")
    mcp.add_argument("--namespace", help="the tools' namespace when a call names none (default: the key's)")

    init = commands.add_parser("init", help="create the schema (constraints and indexes) and exit")
    _store_flags(init)

    consolidate = commands.add_parser("consolidate", help="derive entities, facts and relations from raw episodes")
    _store_flags(consolidate)
    consolidate.add_argument("--namespace", help="only this namespace (default: all)")
    consolidate.add_argument("--limit", type=int, default=1_000_000, help="at most this many episodes")
    consolidate.add_argument(
        "--again", action="store_true", help="first requeue the namespace's consolidated and failed episodes"
    )

    exporter = commands.add_parser(
        "export", help="write everything of a namespace (or all) to a JSON Lines file that `import` restores"
    )
    _store_flags(exporter)
    exporter.add_argument("--namespace", help="only this namespace (default: all)")
    exporter.add_argument("-o", "--output", type=Path, help="the file (gzip when it ends in .gz; default: stdout)")

    importer = commands.add_parser(
        "import", help="restore a file `export` wrote, or capture episodes from JSON Lines (CaptureInput fields)"
    )
    _store_flags(importer)
    importer.add_argument(
        "file", type=Path, help="an export, or one capture per line, e.g. {\"content\": ..., \"agent\": ...}"
    )

    status = commands.add_parser("status", help="print consolidation status and a census of a namespace as JSON")
    _store_flags(status)
    status.add_argument("--namespace", help="one namespace (default: all; the census needs one)")

    dumper = commands.add_parser(
        "dump", help="print a namespace's derived graph as canonical JSON (ids replaced by stable keys), to compare two"
    )
    _store_flags(dumper)
    dumper.add_argument("--namespace", required=True)

    sweeper = commands.add_parser(
        "sweep", help="run the sweeps once: event TTL, erasure past the recovery window, History retention"
    )
    _store_flags(sweeper)
    sweeper.add_argument("--namespace", help="only this namespace (default: all)")

    keys = commands.add_parser("keys", help="create, list and revoke API keys (works beside a running server)")
    key_commands = keys.add_subparsers(dest="keys_command", required=True)
    create = key_commands.add_parser("create", help="create a key; its secret is printed once, on the last line")
    _store_flags(create)
    create.add_argument("--name", required=True, help="what History records as the actor")
    create.add_argument("--role", required=True, choices=[role.value for role in KeyRole])
    scope = create.add_mutually_exclusive_group(required=True)
    scope.add_argument("--namespace", action="append", dest="namespaces", help="a namespace it may use (repeatable)")
    scope.add_argument("--all-namespaces", action="store_true", help="every namespace, present and future")
    create.add_argument("--rate", type=float, help="requests per second (default HIPPOGRAPH_RATE_PER_S)")
    listing = key_commands.add_parser("list", help="name, role, namespaces, created, last used; never a secret")
    _store_flags(listing)
    revoke = key_commands.add_parser("revoke", help="revoke a key; a running server refuses it within seconds")
    _store_flags(revoke)
    revoke.add_argument("name")

    schema = commands.add_parser("schema", help="print the GraphQL schema (SDL)")
    schema.add_argument("--write", type=Path, help="write it to this file instead")

    args = parser.parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    if args.command == "schema":
        return _schema(args.write)
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
    try:
        return _run(args, settings)
    except HippographError as error:
        print(f"hippograph {args.command}: {error.message}", file=sys.stderr)
        return 2
    except Exception as error:  # the store would not open, most often: one line, not a trace
        logging.getLogger(__name__).debug("command failed", exc_info=True)
        print(f"hippograph {args.command}: {_reason(error)}", file=sys.stderr)
        return 1


def _run(args: argparse.Namespace, settings: Settings) -> int:
    if args.command == "serve":
        return _serve(settings)
    if args.command == "keys":
        return _keys(settings, args)
    if args.command == "mcp":
        return _mcp(settings, args)
    if args.command == "consolidate":
        return _consolidate(settings, args.namespace, args.limit, args.again)
    if args.command == "export":
        return _export(settings, args.namespace, args.output)
    if args.command == "import":
        from hippograph.backup.format import is_export

        return _restore(settings, args.file) if is_export(args.file) else _import(settings, args.file)
    if args.command == "status":
        return _status(settings, args.namespace)
    if args.command == "dump":
        return _dump(settings, args.namespace)
    if args.command == "sweep":
        return _sweep(settings, args.namespace)
    return _init(settings)


def _store_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", type=Path, help="embedded store directory (HIPPOGRAPH_DATA_DIR)")
    parser.add_argument("--heap", help="embedded engine Java heap, e.g. 1g (HIPPOGRAPH_HEAP)")
    parser.add_argument("--neo4j-uri", help="use this Neo4j instead of the embedded store (NEO4J_URI)")


def _reason(error: BaseException) -> str:
    """The innermost message of a failure, on one line (the JVM's own is several)."""
    while error.__cause__ is not None:
        error = error.__cause__
    lines = str(error).strip().splitlines() or [type(error).__name__]
    return lines[0]


def _serve(settings: Settings) -> int:
    import uvicorn

    from hippograph.access.keys import list_keys
    from hippograph.api.app import create_app
    from hippograph.api.origin import is_loopback
    from hippograph.runtime import open_runtime, warm_up_in_background

    runtime = open_runtime(settings)  # the store only: the models load once it serves
    if not is_loopback(settings.server.host) and not list_keys(runtime.store):
        runtime.close()
        print(
            f"hippograph serve: refusing to bind {settings.server.host} without an API key; "
            "create one with `hippograph keys create` or bind 127.0.0.1",
            file=sys.stderr,
        )
        return 2
    app = create_app(runtime, close_runtime_on_shutdown=True)
    # /readyz answers as soon as the store does, before the models have loaded.
    warm_up_in_background(runtime)
    print(f"starting Hippograph on http://{settings.server.host}:{settings.server.port}/graphql ({runtime.store.dialect.name})", flush=True)
    uvicorn.run(
        app,
        host=settings.server.host,
        port=settings.server.port,
        log_level="warning",
        forwarded_allow_ips=settings.access.forwarded_allow_ips,
    )
    return 0


def _mcp(settings: Settings, args: argparse.Namespace) -> int:
    try:
        from hippograph.mcp.command import run
    except ImportError as missing:  # the SDK is an extra
        print(f"hippograph mcp: {missing}; install it with pip install 'hippograph[mcp]'", file=sys.stderr)
        return 2
    return run(settings, args)


def _keys(settings: Settings, args: argparse.Namespace) -> int:
    from hippograph.access.keys import create_key, list_keys, revoke_key
    from hippograph.store import open_store

    store = open_store(settings)
    try:
        store.setup_schema()  # a key may be the first thing a new store holds
        if args.keys_command == "create":
            created = create_key(
                store,
                args.name,
                KeyRole(args.role),
                args.namespaces or (),
                all_namespaces=args.all_namespaces,
                rate_per_s=args.rate,
            )
            scope = "all namespaces" if created.key.all_namespaces else ", ".join(created.key.namespaces)
            print(f"created key {created.key.name} ({created.key.role.value}; {scope}); its secret, shown once:")
            print(created.secret, flush=True)
        elif args.keys_command == "list":
            for key in list_keys(store):
                scope = "*" if key.all_namespaces else ",".join(key.namespaces)
                used = key.last_used_at.isoformat(timespec="seconds") if key.last_used_at else "never"
                created_at = key.created_at.isoformat(timespec="seconds")
                print(f"{key.name}\t{key.role.value}\t{scope}\tcreated {created_at}\tlast used {used}")
        else:
            revoke_key(store, args.name)
            print(f"revoked key {args.name}")
    finally:
        store.close()
    return 0


def _consolidate(settings: Settings, namespace: str | None, limit: int, again: bool) -> int:
    from hippograph.consolidation.worker import consolidate, requeue
    from hippograph.runtime import open_runtime

    runtime = open_runtime(settings)
    try:
        if again:
            if namespace is None:
                print("--again needs --namespace", file=sys.stderr)
                return 2
            print(f"requeued {requeue(runtime, namespace)} episodes", flush=True)
        report = consolidate(runtime, namespace=namespace, limit=limit, progress=True)
    finally:
        runtime.close()
    print(f"consolidated {report.processed}, failed {report.failed}, remaining {report.remaining}")
    return 0 if report.failed == 0 else 1


def _import(settings: Settings, path: Path) -> int:
    from tqdm import tqdm

    from hippograph.capture.jsonl import read_captures
    from hippograph.capture.service import capture, check_capture
    from hippograph.kernel.errors import bad_input
    from hippograph.runtime import open_runtime

    runtime = open_runtime(settings)
    batch_size = settings.limits.max_batch
    try:
        # Every line is read and checked before any is written: a bad one leaves the store as it was.
        try:
            with path.open(encoding="utf-8") as stream:
                lines = list(read_captures(stream))
        except HippographError as error:
            raise bad_input(f"{error.message}; nothing was imported") from error
        now = runtime.clock()
        for number, item in lines:
            try:
                check_capture(runtime, item, now)
            except HippographError as error:
                raise bad_input(f"line {number}: {error.message}; nothing was imported", line=number) from error
        stored = 0
        with tqdm(total=len(lines), unit="episode", disable=not sys.stderr.isatty()) as bar:
            for start in range(0, len(lines), batch_size):
                batch = [item for _, item in lines[start : start + batch_size]]
                try:
                    capture(runtime, batch)
                except HippographError as error:
                    raise HippographError(
                        error.code,
                        f"{error.message}; lines up to {lines[start - 1][0] if start else 0} are stored, and "
                        "importing the file again skips them (a capture of stored content is a duplicate)",
                    ) from error
                stored += len(batch)
                bar.update(len(batch))
    finally:
        runtime.close()
    print(f"imported {stored} episodes from {path}")
    return 0


def _export(settings: Settings, namespace: str | None, output: Path | None) -> int:
    from datetime import UTC, datetime

    from tqdm import tqdm

    from hippograph.backup.export import census, export
    from hippograph.kernel.errors import bad_input
    from hippograph.store import open_store

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

    from hippograph.backup.restore import check, refuse_present, write
    from hippograph.store import open_store

    plan = check(path)  # before the store opens: a bad file fails in a second, whatever the store
    store = open_store(settings)
    try:
        store.setup_schema()  # the file may be the first thing a new store holds
        refuse_present(store, plan)
        with tqdm(total=plan.records, unit="record", disable=not sys.stderr.isatty()) as bar:
            write(store, path, plan, bar.update)
    finally:
        store.close()
    nodes, relationships = sum(plan.nodes.values()), sum(plan.relationships.values())
    names = ", ".join(plan.namespaces)
    print(f"imported {nodes} nodes and {relationships} relationships into namespaces {names} from {path}")
    return 0


def _status(settings: Settings, namespace: str | None) -> int:
    import dataclasses
    import json

    from hippograph.consolidation.status import status
    from hippograph.runtime import open_runtime

    runtime = open_runtime(settings)
    try:
        report = dataclasses.asdict(status(runtime, namespace))
        if namespace is not None:
            report["nodes"] = {r["label"]: r["count"] for r in runtime.store.read("census_namespace", namespace=namespace)}
            report["relationships"] = {
                r["type"]: r["count"] for r in runtime.store.read("census_relationships", namespace=namespace)
            }
    finally:
        runtime.close()
    print(json.dumps(report, indent=2, sort_keys=True))
    return 0


def _dump(settings: Settings, namespace: str) -> int:
    import json

    from hippograph.consolidation.canonical import dump
    from hippograph.store import open_store

    store = open_store(settings)
    try:
        print(json.dumps(dump(store, namespace), indent=1, sort_keys=True, default=str))
    finally:
        store.close()
    return 0


def _sweep(settings: Settings, namespace: str | None) -> int:
    import dataclasses
    import json

    from hippograph.lifecycle.sweep import sweep
    from hippograph.runtime import open_runtime

    runtime = open_runtime(settings)
    try:
        report = sweep(runtime, namespace)
    finally:
        runtime.close()
    print(json.dumps(dataclasses.asdict(report), sort_keys=True))
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
