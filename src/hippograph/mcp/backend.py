"""Where the tools' API calls go: a running server given its URL, or the store opened in this
process behind the same ASGI application ``serve`` runs, so both answer alike (validation, keys,
namespaces, error codes) and the tools have one implementation."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping
from typing import TYPE_CHECKING

import anyio
import httpx
from cachetools import LRUCache

from hippograph.client import AsyncClient, Unauthenticated

if TYPE_CHECKING:  # the server's parts load only when the store is opened here
    from hippograph.runtime import Runtime

# The in-process application's address: any loopback URL, never dialled.
LOCAL_URL = "http://127.0.0.1"
# Clients kept for the keys HTTP requests present; more keys than this in turn are rare.
_KEYS_KEPT = 64


@contextlib.asynccontextmanager
async def local_api(runtime: Runtime) -> AsyncIterator[httpx.AsyncBaseTransport]:
    """Serve an open runtime's API to this process only, as ``serve`` would (the models load in
    the background, the background consolidation and sweeps run); the runtime is closed after."""
    from hippograph.api.app import create_app
    from hippograph.runtime import warm_up_in_background

    try:
        app = create_app(runtime, close_runtime_on_shutdown=True)
    except BaseException:
        runtime.close()
        raise
    warm_up_in_background(runtime)
    async with app.router.lifespan_context(app):
        yield httpx.ASGITransport(app=app, client=("127.0.0.1", 0))


class Clients:
    """The API client a tool call goes through. Over stdio, and over HTTP on loopback, a request
    without a key of its own uses the process's (``HIPPOGRAPH_API_KEY``, or none); off loopback
    each HTTP request must present ``Authorization: Bearer <secret>``, which is passed on.

    The clients exist once ``connect`` is called: a store opened here takes seconds (the JVM),
    and the MCP server answers the host meanwhile; a tool call waits for it."""

    def __init__(self, url: str, key: str | None, *, own_key_required: bool, namespace: str | None = None) -> None:
        self.url = url
        self.key = key
        self.namespace = namespace
        self.own_key_required = own_key_required
        self._connected = anyio.Event()
        self._transport: httpx.AsyncBaseTransport | None = None
        self._by_key: LRUCache[str | None, AsyncClient] = LRUCache(maxsize=_KEYS_KEPT)

    def connect(self, transport: httpx.AsyncBaseTransport | None) -> None:
        """Calls go through ``transport`` from now on (None: over the network to the URL)."""
        self._transport = transport
        self._connected.set()

    async def for_request(self, headers: Mapping[str, str] | None) -> AsyncClient:
        secret = _bearer((headers or {}).get("authorization"))
        if secret is None and self.own_key_required:
            raise Unauthenticated(
                "UNAUTHENTICATED", "this MCP endpoint needs Authorization: Bearer <API key>", status=401
            )
        await self._connected.wait()
        key = secret or self.key
        client = self._by_key.get(key)
        if client is None:
            client = AsyncClient(self.url, key=key, namespace=self.namespace, transport=self._transport)
            self._by_key[key] = client
        return client


def _bearer(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, secret = authorization.strip().partition(" ")
    return (secret.strip() or None) if scheme.lower() == "bearer" else None
