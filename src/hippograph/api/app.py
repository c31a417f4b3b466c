"""The ASGI application: GraphQL (with GraphiQL) at /graphql, the graph explorer at /explore, health
and metrics endpoints."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from inspect import isawaitable
from typing import Any

import anyio
from cachetools import LRUCache
from graphql_server.asgi import GraphQL
from graphql_server.exceptions import GraphQLValidationError, InvalidOperationTypeError
from graphql_server.http import GraphQLHTTPResponse, GraphQLRequestData
from graphql_server.http.exceptions import HTTPException
from graphql_server.runtime import validate_document
from graphql_server.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL
from graphql_server.utils.logs import GraphQLServerLogger
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.types import Receive, Scope, Send

from graphql import (
    DocumentNode,
    ExecutionResult,
    GraphQLError,
    OperationType,
    get_operation_ast,
    parse,
    specified_rules,
)
from graphql import execute as execute_document
from hippograph import __version__
from hippograph.access import KeyRing
from hippograph.api import request_id, requests
from hippograph.api.auth import Authenticate, Gate, Refused, client_address, connection_authorization
from hippograph.api.body import BodyLimit
from hippograph.api.budget import document_refusals
from hippograph.api.concepts import ConceptLoader
from hippograph.api.errors import format_error, internal, quiet_client_errors
from hippograph.api.execution import lean_execution
from hippograph.api.hints import NamespaceHints
from hippograph.api.hostile import StorableStrings
from hippograph.api.loaders import MemoryLoader
from hippograph.api.origin import LOOPBACK_NAMES, BrowserGuard, is_loopback
from hippograph.api.pages import SecurityHeaders, explore, page, static_files
from hippograph.api.refusals import refusal
from hippograph.api.schema import schema
from hippograph.api.scrape import metrics_route
from hippograph.api.shared_throttle import SharedFailedAuthThrottle, SharedRateLimiter
from hippograph.api.threads import call
from hippograph.api.websocket import TransportWSHandler, Unauthenticated
from hippograph.capture.reembed import reembed_pending
from hippograph.consolidation.worker import drain
from hippograph.kernel.errors import ErrorCode, bad_input
from hippograph.kernel.text.echo import echo
from hippograph.lifecycle.sweep import sweep
from hippograph.runtime import Runtime

log = logging.getLogger(__name__)

# Episodes the background worker takes per wake-up, so one pass never holds the store for long.
_BACKGROUND_BATCH = 256
# What a parsed operation costs in memory per character of its text, rounded up from what
# graphql-core's nodes and their locations take (docs/benchmarks.md).
_PARSED_BYTES_PER_CHAR = 100


class HippographGraphQL(GraphQL):
    """graphql-server's ASGI view with our context, keys, cached documents and coded errors; a
    malformed request gets a 4xx with a GraphQL error body, and every response an X-Request-Id."""

    graphql_transport_ws_handler_class = TransportWSHandler

    def __init__(self, runtime: Runtime, gate: Gate) -> None:
        super().__init__(
            schema.graphql_schema, graphql_ide="graphiql", subscription_protocols=(GRAPHQL_TRANSPORT_WS_PROTOCOL,)
        )
        self.runtime = runtime
        self.gate = gate
        limits = runtime.settings.limits
        quiet_client_errors(GraphQLServerLogger.logger)
        # Rules given replace graphql-core's own: the standard ones must be listed too. Depth and
        # introspection's cost are judged before them (_document); cost and depth again on every
        # root field (api/guard.py), over WebSocket as well.
        self.rules = (*specified_rules, StorableStrings)
        self._limits = limits
        # Agents send the same few operations again and again: each is parsed and validated once.
        # The cache is bounded by the memory its entries take, so long ones cannot pile up.
        self._documents: LRUCache[str, tuple[int, DocumentNode]] = LRUCache(
            maxsize=limits.document_cache_bytes, getsizeof=lambda entry: entry[0]
        )
        self._cacheable_chars = limits.max_cached_document_chars
        # Mutations beyond this many wait their turn here, in arrival order, holding no thread:
        # they would otherwise only queue inside (at the writer, at the model) while their
        # threads, and the interpreter, were taken from recalls.
        concurrency = runtime.settings.server.write_concurrency
        self._writes = anyio.Semaphore(concurrency) if concurrency > 0 else None
        self._hints = NamespaceHints(runtime.store)
        self._execution = lean_execution(self.schema)

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
        errors = document_refusals(document, self._limits.max_query_depth, self._limits.max_cost) or validate_document(
            self.schema, document, self.rules
        )
        if errors:
            raise GraphQLValidationError(errors)
        if len(query) <= self._cacheable_chars:
            self._documents[query] = (len(query) * _PARSED_BYTES_PER_CHAR, document)
        return document

    async def get_context(self, request: Any, response: Any) -> Any:
        return {
            "request": request,
            "response": response,
            "runtime": self.runtime,
            "gate": self.gate,
            "memories": MemoryLoader(self.runtime.store),
            "concepts": ConceptLoader(self.runtime.store),
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
            raise Unauthenticated from refused
        return await super().on_ws_connect(context)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        current, token = request_id.begin()
        try:
            # Counted while it runs: background consolidation waits for the requests in flight.
            with self.runtime.requests.request():
                response = await self._respond(Request(scope, receive))
        finally:
            request_id.end(token)
        response.headers[request_id.HEADER] = current
        await response(scope, receive, send)

    async def _respond(self, request: Request) -> Response:
        """graphql-server's answer, with its refusals as GraphQL error bodies; a failure of ours
        becomes a logged 500 that names the request id."""
        try:
            return await self.run(request)
        except HTTPException as error:
            if error.status_code < 400:  # a CORS preflight
                return PlainTextResponse(error.reason, status_code=error.status_code)
            reason = echo(str(error.reason))
            log.info("request %s: HTTP %d: %r", request_id.current(), error.status_code, reason)
            return refusal(error.status_code, ErrorCode.BAD_INPUT, reason)
        except Exception as error:  # noqa: BLE001 - the last resort: logged with its request id
            _, message, details = internal("unhandled error", error)
            return refusal(500, ErrorCode.INTERNAL, message, request_id=details.get("requestId"))

    async def render_graphql_ide(self, request: Any, request_data: Any) -> Response:
        # Our own page, its assets served from /static: graphql-server's template loads them from a CDN.
        return page("graphiql")

    def parse_json(self, data: str | bytes) -> Any:
        return requests.parse_json(data)

    async def get_graphql_request_data(
        self, request: Any, context: Any, data: dict[str, Any], protocol: Any
    ) -> GraphQLRequestData:
        # Over a WebSocket, graphql-server checks each message itself and closes on a bad one.
        if protocol != "subscription":
            data = requests.check_payload(data)
        return await super().get_graphql_request_data(request, context, data, protocol)

    async def execute_operation(
        self, request_adapter: Any, request_data: Any, context: Any, root_value: Any, allowed_operation_types: Any
    ) -> ExecutionResult:
        document = request_data.document or self._document(requests.require_query(request_data.query))
        if problem := requests.check_variables(request_data.variables):
            return ExecutionResult(data=None, errors=[GraphQLError(problem, original_error=bad_input(problem))])
        operation = get_operation_ast(document, request_data.operation_name)
        if operation is None:
            name = request_data.operation_name
            problem = (
                f"the document has no operation named {name!r}"
                if name is not None
                else "the document has several operations: name the one to run in operationName"
            )
            return ExecutionResult(data=None, errors=[GraphQLError(problem)])
        if operation.operation is OperationType.SUBSCRIPTION:
            raise HTTPException(400, "subscriptions are served over WebSocket (graphql-transport-ws) at /graphql")
        if operation.operation not in allowed_operation_types:
            raise InvalidOperationTypeError(operation.operation, allowed_operation_types)

        # graphql-core itself, not graphql-server's wrapper, which logs every error a client makes
        # at ERROR with a traceback; format_error logs them as they deserve.
        def run() -> Any:
            return execute_document(
                self.schema,
                document,
                root_value=root_value,
                context_value=context,
                variable_values=request_data.variables,
                operation_name=request_data.operation_name,
                execution_context_class=self._execution,
            )

        if operation.operation is OperationType.MUTATION and self._writes is not None:
            with self.runtime.requests.queue():
                await self._writes.acquire()
            try:
                return await _settled(run())
            finally:
                self._writes.release()
        result = await _settled(run())
        if operation.operation is OperationType.QUERY:
            return await self._hints.annotate(result, context)
        return result

    async def process_result(self, request: Any, result: ExecutionResult, strict: bool = False) -> GraphQLHTTPResponse:
        payload: GraphQLHTTPResponse = {"data": result.data}
        if result.errors:
            payload["errors"] = [format_error(error) for error in result.errors]
        if result.extensions:
            payload["extensions"] = result.extensions
        return payload


def create_app(runtime: Runtime, *, close_runtime_on_shutdown: bool = False) -> Starlette:
    """The app over an open runtime. ``hippograph serve`` hands the runtime over to be closed at
    shutdown: uvicorn re-raises SIGTERM once it has drained, so no code after it would run."""
    settings = runtime.settings
    access = settings.access
    loopback = is_loopback(settings.server.host)
    ring = KeyRing(runtime.store, access.key_refresh_s, runtime.clock)
    gate = Gate(ring, access, keyless_allowed=loopback, **_shared_limits(runtime))
    graphql_app = HippographGraphQL(runtime, gate)
    allowed_hosts = access.allowed_hosts or ((*LOOPBACK_NAMES, settings.server.host) if loopback else ("*",))

    async def healthz(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok", "version": __version__})

    async def readyz(request: Request) -> JSONResponse:
        ready = await call(runtime.store.ping)
        body = {
            "status": "ready" if ready else "unavailable",
            "backend": runtime.store.dialect.name,
            # Ready does not wait for the models (serve loads them in the background; a request
            # that needs one waits for it), but a benchmark may.
            "models": "loaded" if runtime.models_loaded.is_set() else "loading",
        }
        return JSONResponse(body, status_code=200 if ready else 503)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        with contextlib.suppress(Exception):  # until the keys are read, requests get 503
            await call(gate.refresh)
        tasks = [
            asyncio.create_task(_every(access.key_refresh_s, "key refresh", gate.refresh)),
            # Episodes stored while the embedder failed get their vectors once it works again.
            asyncio.create_task(
                _every(
                    settings.server.reembed_interval_s, "re-embedding", reembed_pending, runtime.store, runtime.embedder
                )
            ),
        ]
        if settings.consolidation.interval_s > 0:
            tasks.append(
                asyncio.create_task(
                    _every(
                        settings.consolidation.interval_s,
                        "consolidation",
                        drain,
                        runtime,
                        limit=_BACKGROUND_BATCH,
                        yield_s=settings.consolidation.yield_s,
                    )
                )
            )
        if settings.lifecycle.sweep_interval_s > 0:
            sweeping = (runtime.store, runtime.clock, settings.lifecycle, settings.access, None, runtime.access)
            tasks.append(asyncio.create_task(_every(settings.lifecycle.sweep_interval_s, "sweep", sweep, *sweeping)))
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
            Route("/explore", explore),
            Mount("/static", static_files()),
            Route("/healthz", healthz),
            Route("/readyz", readyz),
            metrics_route(runtime),
        ],
        # The outermost first: response headers, browser checks, CORS, then the body budget and the key.
        middleware=[
            Middleware(SecurityHeaders),
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


def _shared_limits(runtime: Runtime) -> dict[str, Any]:
    """On Neo4j, which several servers may share, rates and backoff count in the store; the
    embedded store has one server, which counts in memory."""
    if runtime.settings.store.embedded:
        return {}
    access = runtime.settings.access
    backoff = (access.auth_free_failures, access.auth_backoff_base_s, access.auth_backoff_max_s)
    return {
        "rates": SharedRateLimiter(runtime.store),
        "guesses": SharedFailedAuthThrottle(runtime.store, *backoff),
        "repeats": SharedFailedAuthThrottle(runtime.store, *backoff),
    }


async def _settled(result: Any) -> ExecutionResult:
    settled: ExecutionResult = await result if isawaitable(result) else result
    return settled


async def _every(interval_s: float, what: str, job: Callable[..., object], *args: Any, **kwargs: Any) -> None:
    """Run a background job forever, ``interval_s`` apart; a failure is logged and retried."""
    while True:
        await asyncio.sleep(interval_s)
        try:
            await call(job, *args, **kwargs)
        except Exception:
            log.warning("background %s failed; will retry", what, exc_info=True)
