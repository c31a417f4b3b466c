"""graphql-server's WebSocket protocols with a request id per operation, as each HTTP request has,
so that what an operation logs can be told from what its neighbours on the socket log."""

from __future__ import annotations

from typing import Any

from graphql_server.subscriptions.protocols.graphql_transport_ws.handlers import BaseGraphQLTransportWSHandler
from graphql_server.subscriptions.protocols.graphql_ws.handlers import BaseGraphQLWSHandler

from hippograph.api import request_id


class TransportWSHandler(BaseGraphQLTransportWSHandler[Any, Any]):
    """graphql-transport-ws: each subscribe message runs in a task of its own."""

    async def run_operation(self, operation: Any) -> None:
        _, token = request_id.begin()
        try:
            await super().run_operation(operation)
        finally:
            request_id.end(token)


class LegacyWSHandler(BaseGraphQLWSHandler[Any, Any]):
    """The older graphql-ws protocol: each start message runs in a task of its own."""

    async def handle_async_results(self, *args: Any, **kwargs: Any) -> None:
        _, token = request_id.begin()
        try:
            await super().handle_async_results(*args, **kwargs)
        finally:
            request_id.end(token)
