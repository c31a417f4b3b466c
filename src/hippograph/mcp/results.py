"""How a tool answers: a text block for the model and the same as structured JSON, or an error
that carries the API's code. Never a traceback."""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from enum import Enum
from functools import wraps
from typing import Any, ParamSpec

from mcp_types import CallToolResult, TextContent

from hippograph.kernel.errors import HippographError

log = logging.getLogger(__name__)
P = ParamSpec("P")


def plain(value: Any) -> Any:
    """A client result as JSON values: dataclasses as objects, datetimes in ISO-8601."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: plain(getattr(value, field.name)) for field in dataclasses.fields(value)}
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    return value


def answer(structured: dict[str, Any], text: str | None = None) -> CallToolResult:
    """``text`` for the model (the structured JSON when not given), ``structured`` for programs."""
    shown = text if text is not None else json.dumps(structured, ensure_ascii=False)
    return CallToolResult(content=[TextContent(type="text", text=shown)], structured_content=structured)


def failure(code: str, message: str) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=f"{code}: {message}")],
        structured_content={"error": {"code": code, "message": message}},
        is_error=True,
    )


def coded(tool: Callable[P, Awaitable[CallToolResult]]) -> Callable[P, Awaitable[CallToolResult]]:
    """A tool whose Hippograph errors become tool errors with their code; anything else is
    logged here (stderr) and reported as INTERNAL, without its trace."""

    @wraps(tool)
    async def run(*args: P.args, **kwargs: P.kwargs) -> CallToolResult:
        try:
            return await tool(*args, **kwargs)
        except HippographError as error:
            return failure(str(error.code), error.message)
        except Exception:
            log.exception("tool %s failed", tool.__name__)
            return failure("INTERNAL", "internal error; the MCP server logged it")

    return run
