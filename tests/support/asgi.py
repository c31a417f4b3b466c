"""Where the suite's requests go: the app in this process (the api tier: httpx.ASGITransport, no
socket) or a real server on a port (for what needs one: WebSockets, other processes, a browser).
Either takes requests from any loopback address: failed authentications count per address."""

from __future__ import annotations

import contextlib
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
from anyio.from_thread import BlockingPortal, start_blocking_portal
from starlette.applications import Starlette

from support.client import HTTP_TIMEOUT_S, GraphQLClient

# The suite's own address. The app sees it as the client's (an address, as a socket would give).
SUITE_ADDRESS = "127.0.0.1"
# Any port: the app reads the address only.
_CLIENT_PORT = 50_000


class Target(ABC):
    """Something that answers HTTP at ``url``, from whichever loopback address a test calls from."""

    url: str

    @abstractmethod
    def transport(self, address: str = SUITE_ADDRESS) -> httpx.BaseTransport: ...

    def http(self, address: str = SUITE_ADDRESS, **options: Any) -> httpx.Client:
        return httpx.Client(base_url=self.url, transport=self.transport(address), timeout=HTTP_TIMEOUT_S, **options)

    def graphql(self, secret: str | None = None, address: str = SUITE_ADDRESS) -> GraphQLClient:
        return GraphQLClient(self.url, secret, transport=self.transport(address))


@dataclass(frozen=True)
class Server(Target):
    """A real server listening on ``url``: requests from ``address`` leave from that address."""

    url: str

    def transport(self, address: str = SUITE_ADDRESS) -> httpx.BaseTransport:
        return httpx.HTTPTransport(local_address=address)


class InProcess(Target):
    """The app in this process. Its lifespan (the key refresh, re-embedding and whichever background
    jobs the settings turn on) runs on one event loop in a thread of its own, as under uvicorn, and
    every request runs on that loop through httpx.ASGITransport. The host is one the app accepts
    from loopback."""

    url = "http://127.0.0.1"

    def __init__(self, app: Starlette, portal: BlockingPortal) -> None:
        self.app = app
        self.portal = portal

    def transport(self, address: str = SUITE_ADDRESS) -> httpx.BaseTransport:
        return _OnLoop(self.portal, self.async_transport(address))

    def async_transport(self, address: str = SUITE_ADDRESS) -> httpx.AsyncBaseTransport:
        """For an async client: it runs the app on the caller's own event loop."""
        return httpx.ASGITransport(self.app, client=(address, _CLIENT_PORT))


@contextlib.contextmanager
def in_process(app: Starlette) -> Iterator[InProcess]:
    """``app`` started as a server starts it (its lifespan entered), until the block ends."""
    with (
        start_blocking_portal() as portal,
        portal.wrap_async_context_manager(app.router.lifespan_context(app)),
    ):
        yield InProcess(app, portal)


class _OnLoop(httpx.BaseTransport):
    """httpx.ASGITransport is async only: a sync client's request is run on the app's loop, and
    read there whole (as ASGITransport reads it anyway) before it is handed back."""

    def __init__(self, portal: BlockingPortal, asgi: httpx.AsyncBaseTransport) -> None:
        self.portal = portal
        self.asgi = asgi

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if not isinstance(request.stream, httpx.AsyncByteStream):
            # A body the caller streams (an iterator: chunked, no Content-Length) reaches the
            # app in the chunks it came in.
            request.stream = _Chunks(list(request.stream))
        return self.portal.call(self._send, request)

    async def _send(self, request: httpx.Request) -> httpx.Response:
        response = await self.asgi.handle_async_request(request)
        content = await response.aread()
        return httpx.Response(response.status_code, headers=response.headers, content=content)


class _Chunks(httpx.AsyncByteStream):
    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            yield chunk
