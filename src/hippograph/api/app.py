"""The ASGI application: GraphQL (with GraphiQL) at /graphql, health and metrics endpoints."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from cachetools import LRUCache
from graphql_server.asgi import GraphQL
from graphql_server.exceptions import GraphQLValidationError
from graphql_server.http import GraphQLHTTPResponse
from graphql_server.runtime import execute, validate_document
from graphql_server.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL
from graphql_server.subscriptions.protocols.graphql_transport_ws.handlers import BaseGraphQLTransportWSHandler
from prometheus_client import make_asgi_app
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute

from graphql import DocumentNode, ExecutionResult, GraphQLError, parse, specified_rules
from hippograph import __version__
from hippograph.access import KeyRing
from hippograph.api.auth import Authenticate, Gate, Refused, client_address, connection_authorization
from hippograph.api.body import BodyLimit
from hippograph.api.errors import format_error
from hippograph.api.loaders import MemoryLoader
from hippograph.api.origin import LOOPBACK_NAMES, BrowserGuard, is_loopback
from hippograph.api.schema import schema
from hippograph.api.threads import call
from hippograph.capture.reembed import reembed_pending
from hippograph.consolidation.worker import drain
from hippograph.lifecycle.sweep import sweep
from hippograph.runtime import Runtime

log = logging.getLogger(__name__)

# Episodes the background worker takes per wake-up, so one pass never holds the store for long.
_BACKGROUND_BATCH = 256


class _Unauthenticated(Exception):
    """A WebSocket's connection_init carried no key the server accepts."""


class _KeyedTransportWS(BaseGraphQLTransportWSHandler):  # type: ignore[type-arg]
    """graphql-transport-ws, closing with 4401 when connection_init brings no valid key (the
    protocol's own rejection closes with 4403, which means forbidden, not unauthenticated)."""

    async def handle_connection_init(self, message: Any) -> None:
        try:
            await super().handle_connection_init(message)
        except _Unauthenticated:
            await self.websocket.close(code=4401, reason="Unauthorized")


class HippographGraphQL(GraphQL):
    """graphql-server's ASGI view with our context, keys, cached documents and coded errors."""

    graphql_transport_ws_handler_class = _KeyedTransportWS

    def __init__(self, runtime: Runtime, gate: Gate) -> None:
        super().__init__(
            schema.graphql_schema, graphql_ide="graphiql", subscription_protocols=(GRAPHQL_TRANSPORT_WS_PROTOCOL,)
        )
        self.runtime = runtime
        self.gate = gate
        limits = runtime.settings.limits
        # Agents send the same few operations again and again: each is parsed and validated once.
        # The cache is bounded by the length of the texts it keeps, so long ones cannot pile up.
        self._documents: LRUCache[str, tuple[int, DocumentNode]] = LRUCache(
            maxsize=limits.document_cache_bytes, getsizeof=lambda entry: entry[0]
        )
        self._cacheable_chars = limits.max_cached_document_chars

    def _document(self, query: str) -> DocumentNode:
        """The operation's document, checked against the schema; a failure raises and is not
        cached, as graphql-server would report it."""
        cached = self._documents.get(query)
        if cached is not None:
            return cached[1]
        try:
            document = parse(query)
        except GraphQLError as error:
            raise GraphQLValidationError([error]) from error
        errors = validate_document(self.schema, document, specified_rules)
        if errors:
            raise GraphQLValidationError(errors)
        if len(query) <= self._cacheable_chars:
            self._documents[query] = (len(query), document)
        return document

    async def get_context(self, request: Any, response: Any) -> Any:
        return {
            "request": request,
            "response": response,
            "runtime": self.runtime,
            "memories": MemoryLoader(self.runtime.store),
            # Over HTTP, set by Authenticate; a WebSocket's comes with its connection_init.
            "principal": request.scope.get("state", {}).get("principal"),
        }

    async def on_ws_connect(self, context: Any) -> Any:
        websocket = context["request"]
        try:
            context["principal"] = self.gate.admit(
                connection_authorization(context.get("connection_params")), client_address(websocket.scope)
            )
        except Refused as refused:
            raise _Unauthenticated from refused
        return await super().on_ws_connect(context)

    async def execute_operation(self, request_adapter: Any, request_data: Any, context: Any, root_value: Any,
                                allowed_operation_types: Any) -> ExecutionResult:
        return await execute(
            schema=self.schema,
            query=request_data.document or (self._document(request_data.query) if request_data.query else None),
            root_value=root_value,
            variable_values=request_data.variables,
            context_value=context,
            operation_name=request_data.operation_name,
            allowed_operation_types=allowed_operation_types,
            operation_extensions=request_data.extensions,
            validate_document=False,
        )

    async def process_result(
        self, request: Any, result: ExecutionResult, strict: bool = False
    ) -> GraphQLHTTPResponse:
        payload: GraphQLHTTPResponse = {"data": result.data}
        if result.errors:
            payload["errors"] = [format_error(error) for error in result.errors]
        return payload


def create_app(runtime: Runtime, *, close_runtime_on_shutdown: bool = False) -> Starlette:
    """The app over an open runtime. ``hippograph serve`` hands the runtime over to be closed at
    shutdown: uvicorn re-raises SIGTERM once it has drained, so no code after it would run."""
    settings = runtime.settings
    access = settings.access
    loopback = is_loopback(settings.host)
    ring = KeyRing(runtime.store, access.key_refresh_s, runtime.clock)
    gate = Gate(ring, access, keyless_allowed=loopback)
    graphql_app = HippographGraphQL(runtime, gate)
    allowed_hosts = access.allowed_hosts or ((*LOOPBACK_NAMES, settings.host) if loopback else ("*",))

    async def healthz(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok", "version": __version__})

    async def readyz(request: Request) -> JSONResponse:
        ready = await call(runtime.store.ping)
        body = {"status": "ready" if ready else "unavailable", "backend": runtime.store.dialect.name}
        return JSONResponse(body, status_code=200 if ready else 503)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        with contextlib.suppress(Exception):  # until the keys are read, requests get 503
            await call(gate.refresh)
        tasks = [
            asyncio.create_task(_every(access.key_refresh_s, "key refresh", gate.refresh)),
            # Episodes stored while the embedder failed get their vectors once it works again.
            asyncio.create_task(_every(settings.reembed_interval_s, "re-embedding", reembed_pending, runtime)),
        ]
        if settings.consolidation_interval_s > 0:
            tasks.append(
                asyncio.create_task(
                    _every(settings.consolidation_interval_s, "consolidation", drain, runtime, limit=_BACKGROUND_BATCH)
                )
            )
        if settings.sweep_interval_s > 0:
            tasks.append(asyncio.create_task(_every(settings.sweep_interval_s, "sweep", sweep, runtime)))
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            if close_runtime_on_shutdown:
                await call(runtime.close)

    return Starlette(
        routes=[
            Route("/graphql", graphql_app, methods=["GET", "POST"]),
            WebSocketRoute("/graphql", graphql_app),
            Route("/healthz", healthz),
            Route("/readyz", readyz),
            Mount("/metrics", make_asgi_app()),
        ],
        # The outermost first: browser checks, CORS, then the body budget and the key.
        middleware=[
            Middleware(BrowserGuard, allowed_hosts=allowed_hosts, cors_origins=access.cors_origins),
            Middleware(
                CORSMiddleware,
                allow_origins=list(access.cors_origins),
                allow_methods=["GET", "POST"],
                allow_headers=["Authorization", "Content-Type"],
                max_age=600,
            ),
            Middleware(BodyLimit, max_bytes=settings.limits.max_body_bytes),
            Middleware(Authenticate, gate=gate),
        ],
        lifespan=lifespan,
    )


async def _every(interval_s: float, what: str, job: Callable[..., object], *args: Any, **kwargs: Any) -> None:
    """Run a background job forever, ``interval_s`` apart; a failure is logged and retried."""
    while True:
        await asyncio.sleep(interval_s)
        try:
            await call(job, *args, **kwargs)
        except Exception:
            log.warning("background %s failed; will retry", what, exc_info=True)
