"""graphql-transport-ws with a request id per operation, as each HTTP request has, so that what an
operation logs can be told from what its neighbours on the socket log; and with the close code
4401 for a connection_init that brings no valid key (the protocol's own rejection closes with
4403, which means forbidden, not unauthenticated)."""

from __future__ import annotations

from typing import Any

from graphql_server.subscriptions.protocols.graphql_transport_ws.handlers import BaseGraphQLTransportWSHandler

from hippograph.api import request_id


class Unauthenticated(Exception):
    """A WebSocket's connection_init carried no key the server accepts."""


class TransportWSHandler(BaseGraphQLTransportWSHandler[Any, Any]):
    """graphql-transport-ws: each subscribe message runs in a task of its own."""

    async def handle_connection_init(self, message: Any) -> None:
        try:
            await super().handle_connection_init(message)
        except Unauthenticated:
            await self.websocket.close(code=4401, reason="Unauthorized")

    async def run_operation(self, operation: Any) -> None:
        _, token = request_id.begin()
        try:
            await super().run_operation(operation)
        finally:
            request_id.end(token)
