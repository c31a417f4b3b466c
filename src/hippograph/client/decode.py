"""Turn the JSON of a GraphQL answer into the client's dataclasses, guided by their type hints."""

from __future__ import annotations

import dataclasses
import types
from datetime import datetime
from enum import Enum
from functools import cache
from typing import Any, TypeVar, Union, cast, get_args, get_origin, get_type_hints, overload

from hippograph.client.types import Memory

T = TypeVar("T")


@overload
def decode(kind: type[T], value: Any) -> T: ...


@overload
def decode(kind: Any, value: Any) -> Any: ...


def decode(kind: Any, value: Any) -> Any:
    """``value`` as an instance of ``kind``: a dataclass (camelCase keys), a union of dataclasses
    (picked by ``__typename``), a list, an optional, an enum, a datetime or a plain JSON value."""
    origin = get_origin(kind)
    if origin in (Union, types.UnionType):
        options = [option for option in get_args(kind) if option is not type(None)]
        if value is None:
            return None
        if len(options) == 1:
            return decode(options[0], value)
        by_name = {option.__name__: option for option in options}
        return decode(by_name[value["__typename"]], value)
    if origin is list:
        (item,) = get_args(kind)
        return [decode(item, element) for element in value]
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return kind(**{name: decode(hint, value.get(key)) for name, key, hint in _fields(kind)})
    if kind is datetime:
        return datetime.fromisoformat(value)
    if isinstance(kind, type) and issubclass(kind, Enum):
        return kind(value)
    if kind is float:
        return float(value)
    if kind is str and isinstance(value, dict):
        return value["id"]  # a reference selected as { id }, such as a fact's supporting episodes
    return value


def decode_memory(value: Any) -> Memory:
    """``decode(Memory, value)``: a union is no ``type[T]`` (Python types have no "type form" yet),
    so the result's type is stated here once."""
    return cast(Memory, decode(Memory, value))


@cache
def _fields(kind: type) -> list[tuple[str, str, Any]]:
    """Each field's name, its GraphQL name and its resolved type."""
    hints = get_type_hints(kind)
    return [(field.name, camel(field.name), hints[field.name]) for field in dataclasses.fields(kind)]


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)
