"""Where the tools' API calls go: a running server given its URL, or the store opened in this
process behind the same ASGI application ``serve`` runs, so both answer alike (validation, keys,
namespaces, error codes) and the tools have one implementation."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Mapping

import anyio.to_thread
import httpx
from cachetools import LRUCache

from hippograph.client import AsyncClient, Unauthenticated
from hippograph.config import Settings

log = logging.getLogger(__name__)

# The in-process application's address: any loopback URL, never dialled.
LOCAL_URL = "http://127.0.0.1"
# Clients kept for the keys HTTP requests present; more keys than this in turn are rare.
_KEYS_KEPT = 64


@contextlib.asynccontextmanager
async def local_api(settings: Settings, *, require_keys: bool) -> AsyncIterator[httpx.AsyncBaseTransport]:
    """Open the store as ``serve`` does (models load in the background, the background
    consolidation and sweeps run) and serve its API to this process only. With
    ``require_keys``, a store without any API key is refused, as ``serve`` refuses one off
    loopback."""
    from hippograph.access.keys import list_keys
    from hippograph.api.app import create_app
    from hippograph.runtime import open_runtime, warm_up_in_background

    runtime = await anyio.to_thread.run_sync(open_runtime, settings)
    try:
        if require_keys and not list_keys(runtime.store):
            raise RefusedToServe(
                f"refusing to serve MCP on {settings.host} without an API key; create one with "
                "`hippograph keys create` or bind 127.0.0.1"
            )
        app = create_app(runtime, close_runtime_on_shutdown=True)
    except BaseException:
        runtime.close()
        raise
    warm_up_in_background(runtime)
    async with app.router.lifespan_context(app):
        yield httpx.ASGITransport(app=app, client=("127.0.0.1", 0))


class RefusedToServe(Exception):
    pass


class Clients:
    """The API client a tool call goes through. Over stdio, and over HTTP on loopback, a request
    without a key of its own uses the process's (``HIPPOGRAPH_API_KEY``, or none); off loopback
    each HTTP request must present ``Authorization: Bearer <secret>``, which is passed on."""

    def __init__(
        self,
        url: str,
        key: str | None,
        transport: httpx.AsyncBaseTransport | None,
        *,
        own_key_required: bool,
        namespace: str | None = None,
    ) -> None:
        self.url = url
        self.namespace = namespace
        self.transport = transport
        self.own_key_required = own_key_required
        self.default = AsyncClient(url, key=key, namespace=namespace, transport=transport)
        self._by_key: LRUCache[str, AsyncClient] = LRUCache(maxsize=_KEYS_KEPT)

    def for_request(self, headers: Mapping[str, str] | None) -> AsyncClient:
        secret = _bearer((headers or {}).get("authorization"))
        if secret is None:
            if self.own_key_required:
                raise Unauthenticated(
                    "UNAUTHENTICATED", "this MCP endpoint needs Authorization: Bearer <API key>", status=401
                )
            return self.default
        client = self._by_key.get(secret)
        if client is None:
            client = self._by_key[secret] = AsyncClient(
                self.url, key=secret, namespace=self.namespace, transport=self.transport
            )
        return client

    async def aclose(self) -> None:
        await self.default.aclose()


def _bearer(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, secret = authorization.strip().partition(" ")
    return (secret.strip() or None) if scheme.lower() == "bearer" else None
