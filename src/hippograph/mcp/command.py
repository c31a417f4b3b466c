"""Running ``hippograph mcp``: over stdio (the default) or streamable HTTP, on the store opened
here or on a running server given its URL."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Future
from contextlib import AbstractAsyncContextManager as AsyncContextManager
from typing import TYPE_CHECKING

import anyio
from mcp.server.mcpserver import MCPServer

from hippograph.api.origin import is_loopback
from hippograph.api.serving import announcing_server
from hippograph.kernel.config import Settings
from hippograph.mcp.backend import LOCAL_URL, Clients, local_api
from hippograph.mcp.tools import build_server

if TYPE_CHECKING:
    from hippograph.runtime import Runtime

KEY_VARIABLE = "HIPPOGRAPH_API_KEY"
DEFAULT_PORT = 8421
log = logging.getLogger(__name__)


def run(settings: Settings, args: argparse.Namespace) -> int:
    """Serve until the client hangs up (stdio) or the process is stopped (HTTP)."""
    if args.transport == "stdio":
        _keep_stdout_for_the_protocol()
        # Nobody else can reach a stdio server: it serves the one local user, as serve on loopback.
        settings = settings.with_overrides(host="127.0.0.1")
    # One line per API call at INFO would drown what matters in the host's log.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    loopback = is_loopback(settings.server.host)
    clients = Clients(
        args.url or LOCAL_URL,
        os.environ.get(KEY_VARIABLE) or None,
        own_key_required=not loopback,
        namespace=args.namespace,
    )
    server = build_server(clients)
    if args.url:
        clients.connect(None)
        anyio.run(_serve, server, settings.server.host, args, None)
        return 0
    # The store opens in the main thread: the embedded engine's JVM, started from any other,
    # keeps the process from exiting.
    from hippograph.runtime import open_runtime

    if args.transport == "stdio":
        return _stdio_on_a_store_of_its_own(server, clients, lambda: open_runtime(settings))
    runtime = open_runtime(settings)
    if not loopback and not _has_keys(runtime):
        runtime.close()
        print(
            f"hippograph mcp: refusing to bind {settings.server.host} without an API key; create one with "
            "`hippograph keys create` or bind 127.0.0.1",
            file=sys.stderr,
        )
        return 2
    anyio.run(_serve, server, settings.server.host, args, _store_lifespan(runtime, clients))
    return 0


def _has_keys(runtime: Runtime) -> bool:
    from hippograph.access.keys import list_keys

    return bool(list_keys(runtime.store))


def _store_lifespan(
    runtime: Runtime, clients: Clients
) -> Callable[[AsyncContextManager[object]], AsyncContextManager[None]]:
    """The store's API served and closed within the HTTP app's own lifespan: uvicorn re-raises
    SIGTERM once it has drained, so nothing after it would run."""

    @contextlib.asynccontextmanager
    async def lifespan(inner: AsyncContextManager[object]) -> AsyncIterator[None]:
        async with local_api(runtime) as transport:
            clients.connect(transport)
            async with inner:
                yield

    return lifespan


def _stdio_on_a_store_of_its_own(server: MCPServer, clients: Clients, open_store: Callable[[], Runtime]) -> int:
    """Answer the host at once and open the store meanwhile (the JVM takes seconds to start):
    the protocol runs in a thread of its own, and tool calls wait for the store."""
    opened: Future[Runtime] = Future()
    protocol = threading.Thread(target=_run_stdio, args=(server, clients, opened), name="mcp-stdio", daemon=True)
    protocol.start()
    try:
        opened.set_result(open_store())
    except BaseException as error:
        opened.set_exception(error)
        raise
    protocol.join()
    return 0


def _run_stdio(server: MCPServer, clients: Clients, opened: Future[Runtime]) -> None:
    async def serve() -> None:
        stop = anyio.Event()
        async with anyio.create_task_group() as group:
            group.start_soon(_connect_when_open, opened, clients, stop)
            await server.run_stdio_async()
            stop.set()  # the store closes in its own time: cancelling would cut its shutdown short

    try:
        anyio.run(serve)
    except Exception:  # the store did not open: the main thread reports why
        log.debug("MCP over stdio ended", exc_info=True)


async def _connect_when_open(opened: Future[Runtime], clients: Clients, stop: anyio.Event) -> None:
    runtime = await anyio.to_thread.run_sync(opened.result)
    async with local_api(runtime) as transport:
        clients.connect(transport)
        log.info("store open; the tools use it")
        await stop.wait()


async def _serve(
    server: MCPServer,
    host: str,
    args: argparse.Namespace,
    around: Callable[[AsyncContextManager[object]], AsyncContextManager[None]] | None,
) -> None:
    if args.transport == "stdio":
        await server.run_stdio_async()
        return
    import uvicorn

    app = server.streamable_http_app(host=host)
    if around is not None:
        sdk_lifespan = app.router.lifespan_context
        app.router.lifespan_context = lambda app: around(sdk_lifespan(app))
    config = uvicorn.Config(
        app, host=host, port=args.port if args.port is not None else DEFAULT_PORT, log_level="warning"
    )
    await announcing_server(config, lambda port: print(f"serving MCP on http://{host}:{port}/mcp", flush=True)).serve()


def _keep_stdout_for_the_protocol() -> None:
    """Standard output carries the protocol and nothing else: the process's file descriptor 1 is
    pointed at stderr (the embedded engine's JVM and native libraries write there), and
    ``sys.stdout`` keeps a private copy of the original for the MCP SDK to write to."""
    wire = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = open(wire, "w", encoding="utf-8")  # noqa: SIM115 - it lives as long as the process
