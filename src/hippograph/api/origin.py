"""Browser defences: a page the user has open must not reach the API through the user's browser.

DNS rebinding points an attacker's host name at 127.0.0.1, so its requests arrive with that
foreign name in ``Host``; a cross-site request or WebSocket arrives with a foreign ``Origin``. Both
are refused here, on every request and WebSocket handshake, before anything else runs.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from hippograph.api.refusals import refuse
from hippograph.kernel.errors import ErrorCode

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


def is_loopback(host: str) -> bool:
    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def host_name(authority: str) -> str:
    """``example.com:8420`` → ``example.com``; ``[::1]:8420`` → ``::1``."""
    authority = authority.strip().lower()
    if authority.startswith("["):
        return authority[1 : authority.find("]")] if "]" in authority else authority
    return authority.rsplit(":", 1)[0] if authority.count(":") == 1 else authority


class BrowserGuard:
    """Refuses a ``Host`` outside ``allowed_hosts`` (``*`` allows any) and an ``Origin`` that is
    neither the server's own nor one of ``cors_origins``."""

    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str], cors_origins: Iterable[str]) -> None:
        self.app = app
        self.allowed_hosts = frozenset(host.lower() for host in allowed_hosts)
        self.cors_origins = frozenset(origin.rstrip("/").lower() for origin in cors_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        authority = headers.get("host", "")
        if "*" not in self.allowed_hosts and host_name(authority) not in self.allowed_hosts:
            await refuse(scope, receive, send, 400, ErrorCode.BAD_INPUT, "this server does not answer to that Host")
            return
        origin = headers.get("origin")
        if origin is not None and not self._origin_allowed(origin, authority):
            await refuse(
                scope, receive, send, 403, ErrorCode.FORBIDDEN, "cross-origin requests from that Origin are not allowed"
            )
            return
        await self.app(scope, receive, send)

    def _origin_allowed(self, origin: str, authority: str) -> bool:
        origin = origin.rstrip("/").lower()
        if origin in self.cors_origins:
            return True
        # Same origin: the page was served by this server under the Host the request names.
        parts = urlsplit(origin)
        return parts.scheme in ("http", "https") and parts.netloc == authority.strip().lower()
