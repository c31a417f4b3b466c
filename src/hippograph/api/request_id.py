"""One id per HTTP request or WebSocket operation, so that a client quoting the id of an INTERNAL
error leads to the one log record with its traceback."""

from __future__ import annotations

from contextvars import ContextVar, Token

from ulid import ULID

_current: ContextVar[str | None] = ContextVar("hippograph_request_id", default=None)

HEADER = "X-Request-Id"


def begin() -> tuple[str, Token[str | None]]:
    """A fresh id, current until ``end``; resolvers on worker threads see it too (asyncio copies
    the context into them)."""
    request_id = str(ULID())
    return request_id, _current.set(request_id)


def end(token: Token[str | None]) -> None:
    _current.reset(token)


def current() -> str | None:
    return _current.get()
