"""Relay connections: building one from a page, and reading the offset cursors of listings."""

from __future__ import annotations

from typing import Any

import graphene

from hippograph.api import types
from hippograph.errors import bad_input


def connection(cls: Any, nodes: list[Any], cursors: list[str], has_next: bool, has_previous: bool) -> Any:
    edges = [cls.Edge(node=node, cursor=cursor) for node, cursor in zip(nodes, cursors)]
    return cls(
        edges=edges,
        page_info=graphene.relay.PageInfo(
            has_next_page=has_next,
            has_previous_page=has_previous,
            start_cursor=cursors[0] if cursors else None,
            end_cursor=cursors[-1] if cursors else None,
        ),
    )


def offset_window(first: int, after: str | None, max_page_size: int) -> int:
    """How many to skip for the page after ``after``; a bad ``first`` or cursor is bad input."""
    if not 0 < first <= max_page_size:
        raise bad_input(f"first must be between 1 and {max_page_size}", field="first")
    if after is None:
        return 0
    offset = types.decode_offset(after)
    if offset is None:
        raise bad_input("after is not a cursor this API issued", field="after")
    return offset + 1


def offset_connection(cls: Any, found: list[Any], skip: int, first: int) -> Any:
    """The connection of a page read with one item more than ``first`` (whether another follows)."""
    page = found[:first]
    cursors = [types.encode_cursor("offset", str(skip + i)) for i in range(len(page))]
    return connection(cls, page, cursors, len(found) > first, skip > 0)
