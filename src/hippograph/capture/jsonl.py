"""Captures from JSON Lines, one CaptureInput per line with the GraphQL field names."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from typing import IO

from hippograph.errors import bad_input
from hippograph.model import CaptureInput, Role


def read_captures(stream: IO[str]) -> Iterator[tuple[int, CaptureInput]]:
    """Each non-blank line's number and capture; a line that is no capture fails naming its number."""
    for number, line in enumerate(stream, start=1):
        if line.strip():
            yield number, _capture(number, line)


def _capture(number: int, line: str) -> CaptureInput:
    try:
        data = json.loads(line)
        occurred = data.get("occurredAt")
        return CaptureInput(
            content=data["content"],
            namespace=data.get("namespace", "default"),
            role=Role(data.get("role", "USER").lower()),
            agent=data.get("agent"),
            session=data.get("session"),
            occurred_at=datetime.fromisoformat(occurred) if occurred else None,
            tags=tuple(data.get("tags", ())),
            importance=data.get("importance"),
            metadata=data.get("metadata"),
        )
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise bad_input(f"line {number}: {error}", line=number) from error
