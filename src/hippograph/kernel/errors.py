"""Errors a client can act on. Each carries a stable code that reaches GraphQL as extensions.code."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Any

from hippograph.kernel.text.echo import echo


class ErrorCode(StrEnum):
    BAD_INPUT = "BAD_INPUT"
    NOT_FOUND = "NOT_FOUND"
    VERSION_CONFLICT = "VERSION_CONFLICT"
    CONFIRMATION_REQUIRED = "CONFIRMATION_REQUIRED"
    EPISODE_IMMUTABLE = "EPISODE_IMMUTABLE"
    LIMIT_EXCEEDED = "LIMIT_EXCEEDED"
    UNAUTHENTICATED = "UNAUTHENTICATED"
    FORBIDDEN = "FORBIDDEN"
    STORE_UNAVAILABLE = "STORE_UNAVAILABLE"
    INTERNAL = "INTERNAL"


class HippographError(Exception):
    """A failure with a code, a message for people, and optional machine-readable details. The
    message may quote what the client sent, so it is kept scrubbed and bounded (text/echo.py)."""

    def __init__(self, code: ErrorCode, message: str, **details: Any) -> None:
        message = echo(message)
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details


def bad_input(message: str, **details: Any) -> HippographError:
    return HippographError(ErrorCode.BAD_INPUT, message, **details)


def not_json(error: ValueError) -> str:
    """What is wrong with a line that is not JSON, without quoting it (it may hold a secret)."""
    if isinstance(error, json.JSONDecodeError):
        return f"not JSON: {error.msg} (column {error.colno})"
    return "not JSON"
