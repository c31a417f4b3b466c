"""Relay-style pagination: opaque cursors and the connections pages are returned in."""

from __future__ import annotations

import base64
import re
from typing import Any, TypeVar

import graphene

from hippograph.kernel.config import Limits
from hippograph.kernel.errors import bad_input

C = TypeVar("C", bound=graphene.relay.Connection)

DEFAULT_PAGE = 20


def page_size_argument() -> graphene.Int:
    """The ``first`` argument of every paginated field; its bound is the server's max_page_size."""
    return graphene.Int(default_value=DEFAULT_PAGE, description=f"1..{Limits().max_page_size} by default.")


def encode_cursor(kind: str, value: str) -> str:
    """An opaque page cursor: a memory id ("memory") or a position in a listing ("offset")."""
    return base64.urlsafe_b64encode(f"{kind}:{value}".encode()).decode()


def decode_cursor(cursor: str, kind: str) -> str | None:
    """The value of a cursor of this kind; None for anything this API did not issue."""
    try:
        found, _, value = base64.urlsafe_b64decode(cursor.encode()).decode().partition(":")
    except (ValueError, UnicodeDecodeError):
        return None
    return value if found == kind and value else None


# Offsets this API issues are positions in a listing: a few digits, ASCII ones ("²" is a digit too).
_OFFSET = re.compile(r"[0-9]{1,9}")


def decode_offset(cursor: str) -> int | None:
    """The position an "offset" cursor names; None for a forged one, which the store's SKIP could
    not take (not a decimal, or past any listing)."""
    value = decode_cursor(cursor, "offset")
    return int(value) if value is not None and _OFFSET.fullmatch(value) else None


def connection(cls: type[C], nodes: list[Any], cursors: list[str], has_next: bool, has_previous: bool) -> C:
    edges = [cls.Edge(node=node, cursor=cursor) for node, cursor in zip(nodes, cursors, strict=True)]
    page: C = cls(  # graphene is untyped: its constructor gives Any
        edges=edges,
        page_info=graphene.relay.PageInfo(
            has_next_page=has_next,
            has_previous_page=has_previous,
            start_cursor=cursors[0] if cursors else None,
            end_cursor=cursors[-1] if cursors else None,
        ),
    )
    return page


def offset_window(first: int, after: str | None, max_page_size: int) -> int:
    """How many to skip for the page after ``after``; a bad ``first`` or cursor is bad input."""
    if not 0 < first <= max_page_size:
        raise bad_input(f"first must be between 1 and {max_page_size}", field="first")
    if after is None:
        return 0
    offset = decode_offset(after)
    if offset is None:
        raise bad_input("after is not a cursor this API issued", field="after")
    return offset + 1


def offset_connection(cls: type[C], found: list[Any], skip: int, first: int) -> C:
    """The connection of a page read with one item more than ``first`` (whether another follows)."""
    page = found[:first]
    cursors = [encode_cursor("offset", str(skip + i)) for i in range(len(page))]
    return connection(cls, page, cursors, len(found) > first, skip > 0)
