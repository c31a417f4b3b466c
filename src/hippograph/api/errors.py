"""Every GraphQL error leaves with extensions.code and a message a client can act on; never a trace."""

from __future__ import annotations

import logging
from typing import Any

from graphql import GraphQLError
from hippograph.api import request_id
from hippograph.kernel.errors import ErrorCode, HippographError
from hippograph.kernel.metrics import ERRORS
from hippograph.kernel.text.echo import echo

log = logging.getLogger(__name__)


def format_error(error: GraphQLError) -> dict[str, Any]:
    formatted: dict[str, Any] = {"message": error.message}
    if error.locations:
        formatted["locations"] = [{"line": loc.line, "column": loc.column} for loc in error.locations]
    if error.path:
        formatted["path"] = error.path
    code, message, details = _classify(error)
    ERRORS.labels(code.value).inc()
    formatted["message"] = message
    formatted["extensions"] = {"code": code.value, **details}
    return formatted


def _original(error: GraphQLError) -> BaseException | None:
    original = error.original_error
    while isinstance(original, GraphQLError) and original.original_error is not None:
        original = original.original_error  # a coded error, located again by graphql-core
    return original


def code_of(error: BaseException) -> ErrorCode:
    """The code a client gets for ``error`` (as format_error reports it), without logging it."""
    original = _original(error) if isinstance(error, GraphQLError) else error
    if isinstance(original, HippographError):
        return original.code
    if original is None or isinstance(original, GraphQLError):
        return ErrorCode.BAD_INPUT  # graphql-core's or a scalar's: the request is at fault
    return ErrorCode.INTERNAL


def _classify(error: GraphQLError) -> tuple[ErrorCode, str, dict[str, Any]]:
    original, code = _original(error), code_of(error)
    if isinstance(original, HippographError):
        message, details = original.message, original.details
    elif original is not None and code is ErrorCode.INTERNAL:
        return internal(f"internal error in {error.path}", original)
    else:
        # Raised by graphql-core or a scalar: a syntax error, an unknown field, a value that does
        # not fit its type (an unknown Role, a malformed DateTime) - the request is at fault. They
        # quote what was sent, which is scrubbed and bounded like our own messages.
        message, details = echo(error.message), {}
    # The client's mistake, not ours: worth a line, not a traceback. %r keeps echoed input printable;
    # the path holds the client's aliases.
    log.info("request %s: %s at %s: %r", request_id.current(), code.value, echo(str(error.path)), message)
    return code, message, details


def internal(what: str, error: BaseException) -> tuple[ErrorCode, str, dict[str, Any]]:
    """Log a failure of ours with its traceback under the request's id, which the client gets too."""
    current = request_id.current()
    log.error("request %s: %s", current, what, exc_info=error)
    details = {"requestId": current} if current else {}
    return ErrorCode.INTERNAL, "internal error; it has been logged", details


class ClientErrorsAtInfo(logging.Filter):
    """graphql-server logs every error of an operation it runs (over WebSocket) at ERROR with a
    traceback; a client's mistake deserves a line at INFO, and each record names its request."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.msg
        original = getattr(error, "original_error", None)
        record.msg = f"request {request_id.current()}: %r at %s"
        record.args = (echo(str(getattr(error, "message", error))), echo(str(getattr(error, "path", None))))
        if original is None or isinstance(original, (HippographError, GraphQLError)):
            if not logging.getLogger(record.name).isEnabledFor(logging.INFO):
                return False
            record.levelno, record.levelname = logging.INFO, logging.getLevelName(logging.INFO)
            record.exc_info = record.exc_text = None
        return True


def quiet_client_errors(logger: logging.Logger) -> None:
    if not any(isinstance(f, ClientErrorsAtInfo) for f in logger.filters):
        logger.addFilter(ClientErrorsAtInfo())


def coded(error: HippographError) -> GraphQLError:
    """The error as graphql-core formats it itself (subscriptions over websockets), code included."""
    return GraphQLError(error.message, extensions={"code": error.code.value, **error.details}, original_error=error)
