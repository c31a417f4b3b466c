"""Running ``hippograph mcp``: over stdio (the default) or streamable HTTP, on the store opened
here or on a running server given its URL."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

import anyio

from hippograph.config import Settings

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

KEY_VARIABLE = "HIPPOGRAPH_API_KEY"
DEFAULT_PORT = 8421


def run(settings: Settings, args: argparse.Namespace) -> int:
    """Serve until the client hangs up (stdio) or the process is stopped (HTTP)."""
    if args.transport == "stdio":
        _keep_stdout_for_the_protocol()
        # Nobody else can reach a stdio server: it serves the one local user, as serve on loopback.
        settings = settings.with_overrides(host="127.0.0.1")
    from hippograph.mcp.backend import RefusedToServe

    try:
        anyio.run(_serve, settings, args)
    except RefusedToServe as refused:
        print(f"hippograph mcp: {refused}", file=sys.stderr)
        return 2
    return 0


async def _serve(settings: Settings, args: argparse.Namespace) -> None:
    from hippograph.api.origin import is_loopback
    from hippograph.mcp.backend import LOCAL_URL, Clients, local_api
    from hippograph.mcp.tools import build_server

    key = os.environ.get(KEY_VARIABLE) or None
    loopback = is_loopback(settings.host)
    if args.url:
        clients = Clients(args.url, key, None, own_key_required=not loopback, namespace=args.namespace)
        await _run_server(build_server(clients), settings.host, args)
        await clients.aclose()
        return
    async with local_api(settings, require_keys=not loopback) as transport:
        clients = Clients(LOCAL_URL, key, transport, own_key_required=not loopback, namespace=args.namespace)
        await _run_server(build_server(clients), settings.host, args)
        await clients.aclose()


async def _run_server(server: MCPServer, host: str, args: argparse.Namespace) -> None:
    if args.transport == "stdio":
        await server.run_stdio_async()
        return
    import uvicorn

    port = args.port or DEFAULT_PORT
    app = server.streamable_http_app(host=host)
    print(f"serving MCP on http://{host}:{port}/mcp", file=sys.stderr, flush=True)
    await uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning")).serve()


def _keep_stdout_for_the_protocol() -> None:
    """Standard output carries the protocol and nothing else: the process's file descriptor 1 is
    pointed at stderr (the embedded engine's JVM and native libraries write there), and
    ``sys.stdout`` keeps a private copy of the original for the MCP SDK to write to."""
    wire = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = open(wire, "w", encoding="utf-8")  # noqa: SIM115 - it lives as long as the process
