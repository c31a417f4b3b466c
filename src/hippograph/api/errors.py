"""Every GraphQL error leaves with extensions.code and a message a client can act on; never a trace."""

from __future__ import annotations

import logging
from typing import Any

from graphql import GraphQLError
from hippograph.errors import ErrorCode, HippographError

log = logging.getLogger(__name__)


def format_error(error: GraphQLError) -> dict[str, Any]:
    formatted: dict[str, Any] = {"message": error.message}
    if error.locations:
        formatted["locations"] = [{"line": loc.line, "column": loc.column} for loc in error.locations]
    if error.path:
        formatted["path"] = error.path
    code, message, details = _classify(error)
    formatted["message"] = message
    formatted["extensions"] = {"code": code.value, **details}
    return formatted


def _classify(error: GraphQLError) -> tuple[ErrorCode, str, dict[str, Any]]:
    original = error.original_error
    while isinstance(original, GraphQLError) and original.original_error is not None:
        original = original.original_error  # a coded error, located again by graphql-core
    if isinstance(original, HippographError):
        return original.code, original.message, original.details
    if original is None or isinstance(original, GraphQLError):
        # Raised by graphql-core or a scalar: a syntax error, an unknown field, a value that does
        # not fit its type (an unknown Role, a malformed DateTime) - the request is at fault.
        return ErrorCode.BAD_INPUT, error.message, {}
    log.error("internal error in %s", error.path, exc_info=original)
    return ErrorCode.INTERNAL, "internal error; it has been logged", {}


def coded(error: HippographError) -> GraphQLError:
    """The error as graphql-core formats it itself (subscriptions over websockets), code included."""
    return GraphQLError(error.message, extensions={"code": error.code.value, **error.details}, original_error=error)
