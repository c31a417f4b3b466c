"""Requests refused before GraphQL runs, answered as GraphQL-over-HTTP errors: a JSON body whose
error carries ``extensions.code``, whatever the status."""

from __future__ import annotations

from collections.abc import Mapping

from starlette.responses import JSONResponse
from starlette.types import Receive, Scope, Send

from hippograph.kernel.errors import ErrorCode
from hippograph.kernel.metrics import REFUSED


def refusal(
    status: int,
    code: ErrorCode,
    message: str,
    headers: Mapping[str, str] | None = None,
    request_id: str | None = None,
) -> JSONResponse:
    """The answer to a request GraphQL did not run; an INTERNAL one names the request id its log
    line carries."""
    REFUSED.labels(str(status), code.value).inc()
    extensions: dict[str, str] = {"code": code.value}
    if request_id is not None:
        extensions["requestId"] = request_id
    body = {"errors": [{"message": message, "extensions": extensions}]}
    return JSONResponse(body, status_code=status, headers=dict(headers or {}))


async def refuse(
    scope: Scope,
    receive: Receive,
    send: Send,
    status: int,
    code: ErrorCode,
    message: str,
    headers: Mapping[str, str] | None = None,
) -> None:
    """Refuse an HTTP request, or a WebSocket handshake: closed before it is accepted, the server
    answers the handshake with HTTP 403."""
    if scope["type"] == "websocket":
        REFUSED.labels(str(status), code.value).inc()
        await send({"type": "websocket.close", "code": 4000 + status, "reason": message[:120]})
        return
    await refusal(status, code, message, headers)(scope, receive, send)
