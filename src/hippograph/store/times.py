"""Times the store's statements return as text (store/rows.py, Query.times_as_text), read back."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

__all__ = ["time_of"]


def time_of(text: str | list[str | None] | None) -> Any:
    """A time Cypher's toString wrote (a list of them: each), in UTC: ArcadeDB writes no zone, Neo4j
    an offset and perhaps a zone's name in brackets, which the offset makes redundant."""
    if isinstance(text, list):
        return [time_of(item) for item in text]
    if text is None:
        return None
    at = datetime.fromisoformat(text.split("[", 1)[0])
    return at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)
