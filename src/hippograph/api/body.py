"""The request body budget: a body (or a GET's query string) over the limit is answered with 413
before GraphQL sees any of it, whether or not the client declared its length."""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hippograph.api.refusals import refuse
from hippograph.kernel.errors import ErrorCode


class BodyLimit:
    """Reads the body up to the limit before the app runs, then hands it over in one message:
    GraphQL reads the whole body before anything else anyway."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length", "")
        if len(scope.get("query_string", b"")) > self.max_bytes or (
            declared.isdigit() and int(declared) > self.max_bytes
        ):
            await self._refuse(scope, receive, send)
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay(message, receive), send)  # the client went away
                return
            body += message.get("body", b"")
            if len(body) > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        await self.app(scope, _replay({"type": "http.request", "body": bytes(body), "more_body": False}, receive), send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        await refuse(scope, receive, send, 413, ErrorCode.LIMIT_EXCEEDED, f"the request is over {self.max_bytes} bytes")


def _replay(first: Message, receive: Receive) -> Receive:
    """A receive that answers ``first`` once, then whatever the client sends next (a disconnect)."""
    pending: list[Message] = [first]

    async def replayed() -> Message:
        return pending.pop() if pending else await receive()

    return replayed
