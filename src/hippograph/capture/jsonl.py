"""Captures from JSON Lines, one CaptureInput per line with the GraphQL field names."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from typing import IO

from hippograph.kernel.errors import bad_input, not_json
from hippograph.kernel.model import CaptureInput, Role

__all__ = ["read_captures"]


def read_captures(stream: IO[str]) -> Iterator[tuple[int, CaptureInput]]:
    """Each non-blank line's number and capture; a line that is no capture fails naming its number."""
    for number, line in enumerate(stream, start=1):
        if line.strip():
            yield number, _capture(number, line)


def _capture(number: int, line: str) -> CaptureInput:
    # The messages name fields, never values: a line may hold anything, a credential included.
    try:
        data = json.loads(line)
    except ValueError as error:
        raise bad_input(f"line {number}: {not_json(error)}", line=number) from None
    if not isinstance(data, dict):
        raise bad_input(f"line {number}: not a JSON object", line=number)
    if not isinstance(data.get("content"), str):
        raise bad_input(f"line {number}: content must be a string", line=number)
    try:
        role = Role(str(data.get("role", "USER")).lower())
    except ValueError:
        raise bad_input(f"line {number}: role must be one of {', '.join(r.name for r in Role)}", line=number) from None
    occurred = data.get("occurredAt")
    try:
        occurred_at = datetime.fromisoformat(occurred) if occurred else None
    except (TypeError, ValueError):
        raise bad_input(f"line {number}: occurredAt must be an ISO-8601 time", line=number) from None
    try:
        return CaptureInput(
            content=data["content"],
            namespace=data.get("namespace", "default"),
            role=role,
            agent=data.get("agent"),
            session=data.get("session"),
            project=data.get("project"),
            occurred_at=occurred_at,
            tags=tuple(data.get("tags", ())),
            importance=data.get("importance"),
            metadata=data.get("metadata"),
        )
    except TypeError:
        raise bad_input(f"line {number}: tags must be a list", line=number) from None
