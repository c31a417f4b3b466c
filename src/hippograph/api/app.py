"""The ASGI application: GraphQL (with GraphiQL) at /graphql, health and metrics endpoints."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from graphene.validation import depth_limit_validator
from graphql_server.asgi import GraphQL
from graphql_server.exceptions import GraphQLValidationError
from graphql_server.http import GraphQLHTTPResponse
from graphql_server.runtime import execute, validate_document
from prometheus_client import make_asgi_app
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute

from graphql import DocumentNode, ExecutionResult, GraphQLError, parse, specified_rules
from hippograph import __version__
from hippograph.api.errors import format_error
from hippograph.api.loaders import MemoryLoader
from hippograph.api.schema import schema
from hippograph.api.threads import call
from hippograph.capture.reembed import reembed_pending
from hippograph.consolidation.worker import drain
from hippograph.lifecycle.sweep import sweep
from hippograph.runtime import Runtime

log = logging.getLogger(__name__)

# Episodes the background worker takes per wake-up, so one pass never holds the store for long.
_BACKGROUND_BATCH = 256
# Agents send the same few operations again and again; parsing and validating one took about a
# third of GraphQL's share of a recall.
_DOCUMENT_CACHE_SIZE = 256


class HippographGraphQL(GraphQL):
    """graphql-server's ASGI view with our context, a depth limit and coded errors."""

    def __init__(self, runtime: Runtime) -> None:
        super().__init__(schema.graphql_schema, graphql_ide="graphiql")
        self.runtime = runtime
        # Rules given replace graphql-core's own: the standard ones must be listed too.
        self.rules = (*specified_rules, depth_limit_validator(max_depth=runtime.settings.limits.max_query_depth))
        self._document = functools.lru_cache(maxsize=_DOCUMENT_CACHE_SIZE)(self._parse_and_validate)

    def _parse_and_validate(self, query: str) -> DocumentNode:
        """The operation's document, checked against the schema once; a failure raises and is not
        cached, as graphql-server would report it."""
        try:
            document = parse(query)
        except GraphQLError as error:
            raise GraphQLValidationError([error]) from error
        errors = validate_document(self.schema, document, self.rules)
        if errors:
            raise GraphQLValidationError(errors)
        return document

    async def get_context(self, request: Any, response: Any) -> Any:
        return {
            "request": request,
            "response": response,
            "runtime": self.runtime,
            "memories": MemoryLoader(self.runtime.store),
        }

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
    graphql_app = HippographGraphQL(runtime)

    async def healthz(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok", "version": __version__})

    async def readyz(request: Request) -> JSONResponse:
        ready = await call(runtime.store.ping)
        body = {"status": "ready" if ready else "unavailable", "backend": runtime.store.dialect.name}
        return JSONResponse(body, status_code=200 if ready else 503)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        settings = runtime.settings
        # Episodes stored while the embedder failed get their vectors once it works again.
        tasks = [asyncio.create_task(_every(settings.reembed_interval_s, "re-embedding", reembed_pending, runtime))]
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
