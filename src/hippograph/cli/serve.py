"""``hippograph serve`` and ``hippograph mcp``: serving the memory, over GraphQL or MCP."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from hippograph.cli.options import store_flags
from hippograph.kernel.config import Settings


def add_commands(commands: Any) -> None:
    serve = commands.add_parser("serve", help="serve GraphQL (embedded ArcadeDB unless Neo4j is configured)")
    store_flags(serve)
    serve.add_argument("--host", help="bind address (HIPPOGRAPH_HOST, default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (HIPPOGRAPH_PORT, default 8420)")
    serve.add_argument(
        "--no-consolidation",
        action="store_true",
        help="serve the API only: consolidation and the sweeps are left to `hippograph worker` processes",
    )
    serve.set_defaults(run=_serve)

    mcp = commands.add_parser(
        "mcp",
        help="serve the memory tools over MCP (stdio by default) on this store, or on a server given --url",
        description="The API key, when one is needed, comes from HIPPOGRAPH_API_KEY (never a flag: flags show in ps).",
    )
    store_flags(mcp)
    mcp.add_argument("--url", help="use the Hippograph server at this URL instead of opening the store here")
    mcp.add_argument("--transport", choices=["stdio", "streamable-http"], default="stdio")
    mcp.add_argument("--host", help="streamable-http: bind address (default 127.0.0.1)")
    mcp.add_argument("--port", type=int, help="streamable-http: port (default 8421)")
    mcp.add_argument("--namespace", help="the tools' namespace when a call names none (default: the key's)")
    mcp.set_defaults(run=_mcp)


def share_the_interpreter(settings: Settings) -> None:
    """Hand the interpreter's lock round as often as configured: a server's threads mostly wait
    for the store, and each reply finds another thread running Python (docs/configuration.md)."""
    sys.setswitchinterval(settings.server.gil_switch_interval_ms / 1000)


def _serve(settings: Settings, args: argparse.Namespace) -> int:
    from hippograph.access.keys import list_keys
    from hippograph.api.app import create_app
    from hippograph.api.origin import is_loopback
    from hippograph.api.serving import announcing_server
    from hippograph.runtime import open_runtime, warm_up_in_background

    share_the_interpreter(settings)
    if args.no_consolidation:
        settings = settings.with_overrides(consolidation_interval_s=0, sweep_interval_s=0)
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
    role = ", API only" if args.no_consolidation else ""
    announcing_server(
        server_config(app, settings, settings.server.host, settings.server.port),
        lambda port: print(
            f"Hippograph serving on http://{settings.server.host}:{port}/graphql ({runtime.store.dialect.name}{role})",
            flush=True,
        ),
    ).run()
    return 0


def server_config(app: Any, settings: Settings, host: str, port: int) -> Any:
    """uvicorn's configuration for ``app``: X-Forwarded-For is read only from the proxies named in
    HIPPOGRAPH_FORWARDED_ALLOW_IPS, none by default. Any local process reaches a server on
    loopback, so trusting loopback would let it choose the address its failures count against."""
    import uvicorn

    proxies = settings.access.forwarded_allow_ips.strip()
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies or None,
    )


def _mcp(settings: Settings, args: argparse.Namespace) -> int:
    try:
        from hippograph.mcp.command import run
    except ImportError as missing:  # the SDK is an extra
        print(f"hippograph mcp: {missing}; install it with pip install 'hippograph[mcp]'", file=sys.stderr)
        return 2
    share_the_interpreter(settings)
    return run(settings, args)
