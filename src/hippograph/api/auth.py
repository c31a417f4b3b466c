"""Authentication: who a request acts as, decided before GraphQL runs.

With no key in the store, a server bound to loopback serves its one local user; once a key
exists, and always on any other address, every GraphQL request needs ``Authorization: Bearer
<secret>`` (a WebSocket sends it in its ``connection_init`` payload instead).
"""

from __future__ import annotations

import hashlib
import logging
import math
from collections.abc import Mapping

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from hippograph.access import LOCAL, KeyRing, Principal
from hippograph.api.refusals import refuse
from hippograph.api.throttle import FailedAuthThrottle, RateLimiter
from hippograph.kernel.config import Access
from hippograph.kernel.errors import ErrorCode, HippographError

audit = logging.getLogger("hippograph.audit")


class Refused(HippographError):
    """A request turned away before it ran, with the HTTP status and headers to answer with."""

    def __init__(self, status: int, code: ErrorCode, message: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(code, message)
        self.status = status
        self.headers = dict(headers or {})


class Gate:
    """Turns a presented secret (or none) into a principal, or refuses.

    Failed authentications are counted twice. Per address and credential tried (no key is one
    too): a client that repeats a wrong key, or sends none, waits, and only for that credential,
    so it cannot lock out the other clients of its address (every local client is 127.0.0.1, and
    a bridge puts all of its clients on one address). Per address, for each different credential
    that failed: guessing keys makes the whole address wait, good key or not, as the refusals
    would otherwise tell good keys from bad at full speed."""

    def __init__(
        self,
        ring: KeyRing,
        access: Access,
        *,
        keyless_allowed: bool,
        rates: RateLimiter | None = None,
        guesses: FailedAuthThrottle | None = None,
        repeats: FailedAuthThrottle | None = None,
    ) -> None:
        """``rates``, ``guesses`` and ``repeats`` keep their counts in this process unless given
        others (api/shared_throttle.py, for servers sharing a store)."""
        self.ring = ring
        self.access = access
        self.keyless_allowed = keyless_allowed
        self.rates = rates or RateLimiter()
        backoff = (access.auth_free_failures, access.auth_backoff_base_s, access.auth_backoff_max_s)
        self.guesses = guesses or FailedAuthThrottle(*backoff)
        self.repeats = repeats or FailedAuthThrottle(*backoff)

    def admit(self, authorization: str | None, address: str) -> Principal:
        if self.ring.loaded_at is None:
            raise Refused(503, ErrorCode.STORE_UNAVAILABLE, "the API keys could not be read yet; retry shortly")
        if self.ring.empty and self.keyless_allowed:
            return LOCAL
        tried = f"{address} {_fingerprint(authorization)}"
        for throttle, name, message in (
            (self.guesses, address, "too many different keys failed from this address"),
            (self.repeats, tried, "this credential failed too often from this address"),
        ):
            wait = throttle.wait(name)
            if wait > 0:
                raise _too_many(f"{message}; wait before trying again", wait)
        principal = self.ring.authenticate(_bearer(authorization)) if authorization else None
        if principal is None:
            if self.repeats.failures(tried) == 0:
                self.guesses.failed(address)
            self.repeats.failed(tried)
            audit.warning("authentication failed from %s (%s)", address, "bad key" if authorization else "no key")
            raise Refused(
                401,
                ErrorCode.UNAUTHENTICATED,
                "an API key is required: send Authorization: Bearer <secret>"
                if not authorization
                else "unknown API key",
                {"WWW-Authenticate": 'Bearer realm="hippograph"'},
            )
        self.repeats.succeeded(tried)
        retry = self.rates.admit(principal.key_id or principal.name, principal.rate_per_s or self.access.rate_per_s)
        if retry > 0:
            raise _too_many(f"key {principal.name} is over its request rate", retry)
        return principal

    def current(self, principal: Principal) -> Principal | None:
        """``principal`` as the keys stand now: None once its key is revoked, or, for the local
        user of a keyless server, once a key exists. What a long-lived subscription checks."""
        if principal.key_id is None:
            return principal if self.ring.empty and self.keyless_allowed else None
        return self.ring.principal(principal.key_id)

    def refresh(self) -> None:
        self.ring.refresh()


def _too_many(message: str, retry_after_s: float) -> Refused:
    return Refused(429, ErrorCode.LIMIT_EXCEEDED, message, {"Retry-After": str(math.ceil(retry_after_s))})


def _fingerprint(authorization: str | None) -> str:
    """What names a credential in the failure tables: never the secret itself."""
    return hashlib.sha256((authorization or "").encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _bearer(authorization: str) -> str:
    scheme, _, credentials = authorization.strip().partition(" ")
    return credentials.strip() if scheme.lower() == "bearer" else ""


def client_address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def connection_authorization(payload: Mapping[str, object] | None) -> str | None:
    """The ``Authorization`` a WebSocket client put in its ``connection_init`` payload."""
    for key, value in (payload or {}).items():
        if key.lower() == "authorization" and isinstance(value, str):
            return value
    return None


class Authenticate:
    """Puts the request's principal into ``scope["state"]["principal"]`` for /graphql (and
    /metrics unless it is public), or answers with the refusal."""

    def __init__(self, app: ASGIApp, gate: Gate) -> None:
        self.app = app
        self.gate = gate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self._guarded(scope):
            await self.app(scope, receive, send)
            return
        address = client_address(scope)
        try:
            if scope["type"] == "websocket":
                # The key comes later, in connection_init; an address that must wait is refused now.
                if self.gate.guesses.wait(address) > 0:
                    raise Refused(429, ErrorCode.LIMIT_EXCEEDED, "too many failed authentications")
            else:
                principal = self.gate.admit(Headers(scope=scope).get("authorization"), address)
                scope.setdefault("state", {})["principal"] = principal
        except Refused as refused:
            await refuse(scope, receive, send, refused.status, refused.code, refused.message, refused.headers)
            return
        await self.app(scope, receive, send)

    def _guarded(self, scope: Scope) -> bool:
        path: str = scope.get("path", "")
        if path.startswith("/metrics"):
            return not self.gate.access.metrics_public and scope["type"] == "http"
        if not path.startswith("/graphql") or scope["type"] not in ("http", "websocket"):
            return False
        return not (scope["type"] == "http" and _asks_for_ide(scope))


def _asks_for_ide(scope: Scope) -> bool:
    """GraphiQL's page holds no data; the requests it then makes carry the key the user gives it."""
    headers = Headers(scope=scope)
    return (
        scope.get("method") == "GET"
        and "text/html" in headers.get("accept", "")
        and b"query=" not in scope.get("query_string", b"")
    )
