"""graphql-core's executor with a short path for the fields most of an answer is made of.

A recall of 20 hits is ~400 fields, and most of them are a scalar that graphene's default
resolver reads off a dataclass (``score``, ``id``, ``content``). graphql-core gives each the
general treatment: resolve info, arguments, the resolver, checks for awaitables, the type's
dispatch. That was the largest part of the ~4 ms of CPU the event loop spent on a recall beyond
the recall itself (docs/benchmarks.md). Such a field here is read and serialized directly.
Anything else, and any such field whose value is not a plain one (null where the schema forbids
it, a value the scalar refuses), takes graphql-core's own path, which reports it as it always
did: the reads are attribute lookups, safe to make twice.
"""

from __future__ import annotations

from asyncio import gather
from dataclasses import dataclass
from functools import partial
from typing import Any

from graphene.types.resolver import attr_resolver, dict_or_attr_resolver, dict_resolver
from graphql.pyutils import Path
from graphql.pyutils import is_awaitable as default_is_awaitable

from graphql import (
    ExecutionContext,
    FieldNode,
    GraphQLEnumType,
    GraphQLField,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLScalarType,
    GraphQLSchema,
    Undefined,
)

__all__ = ["lean_execution"]

_DEFAULT_RESOLVERS = (dict_or_attr_resolver, attr_resolver, dict_resolver)
_NOTHING = object()
# Values of these exact types are never awaitable: most of what graphql-core asks about.
_PLAIN = frozenset({str, int, float, bool, type(None), list, dict})


@dataclass(frozen=True, slots=True)
class _Leaf:
    """A field graphene's default resolver reads and a scalar or enum type serializes: a value,
    or with ``many`` a list of them."""

    attribute: str
    default: Any
    type: GraphQLScalarType | GraphQLEnumType
    required: bool
    many: bool = False
    required_items: bool = False

    @staticmethod
    def of(field: GraphQLField) -> _Leaf | None:
        resolve = field.resolve
        if field.args or not isinstance(resolve, partial) or resolve.func not in _DEFAULT_RESOLVERS:
            return None
        if len(resolve.args) != 2 or resolve.keywords:
            return None
        attribute, default = resolve.args
        required, outer = _unwrapped(field.type)
        if isinstance(outer, GraphQLScalarType | GraphQLEnumType):
            return _Leaf(attribute, default, outer, required)
        if not isinstance(outer, GraphQLList):
            return None
        required_items, inner = _unwrapped(outer.of_type)
        if isinstance(inner, GraphQLScalarType | GraphQLEnumType):
            return _Leaf(attribute, default, inner, required, many=True, required_items=required_items)
        return None

    def value(self, source: Any) -> Any:
        """The serialized value, or ``_NOTHING`` when graphql-core's path must decide."""
        try:
            raw = (
                source.get(self.attribute, self.default)
                if isinstance(source, dict)
                else getattr(source, self.attribute, self.default)
            )
        except Exception:  # noqa: BLE001 - a property that raises: graphql-core's path locates it
            return _NOTHING
        if raw is None:
            return _NOTHING if self.required else None
        if not self.many:
            return self._serialized(raw)
        if not isinstance(raw, list | tuple):
            return _NOTHING
        items = [None if item is None else self._serialized(item) for item in raw]
        if any(item is _NOTHING or (item is None and self.required_items) for item in items):
            return _NOTHING
        return items

    def _serialized(self, raw: Any) -> Any:
        try:
            serialized = self.type.serialize(raw)
        except Exception:  # noqa: BLE001 - graphql-core's path serializes again and reports it
            return _NOTHING
        return _NOTHING if serialized is None or serialized is Undefined else serialized


def lean_execution(schema: GraphQLSchema) -> type[ExecutionContext]:
    """An execution context class for ``schema`` (``graphql.execute``'s
    ``execution_context_class``), its plain leaves found once."""
    leaves = _leaves(schema)

    class LeanExecutionContext(ExecutionContext):
        is_awaitable = staticmethod(_is_awaitable)

        def execute_fields(
            self, parent_type: GraphQLObjectType, source: Any, path: Path | None, fields: dict[str, list[FieldNode]]
        ) -> Any:
            """graphql-core's, but for the plain leaves, which are read here: no path, resolve
            info or awaitable check for them."""
            results: dict[str, Any] = {}
            waiting: list[str] = []
            read_here = self.middleware_manager is None  # a middleware must see every field
            for name, nodes in fields.items():
                value = _read(leaves, parent_type, nodes[0].name.value, source) if read_here else _NOTHING
                if value is not _NOTHING:
                    results[name] = value
                    continue
                result = self.execute_field(parent_type, source, nodes, Path(path, name, parent_type.name))
                if result is not Undefined:
                    results[name] = result
                    if _is_awaitable(result):
                        waiting.append(name)
            if not waiting:
                return results

            async def awaited() -> dict[str, Any]:
                results.update(zip(waiting, await gather(*(results[name] for name in waiting)), strict=True))
                return results

            return awaited()

    return LeanExecutionContext


def _unwrapped(type_: Any) -> tuple[bool, Any]:
    """Whether ``type_`` is non-null, and the type it wraps (itself if nullable)."""
    return (True, type_.of_type) if isinstance(type_, GraphQLNonNull) else (False, type_)


def _read(leaves: dict[tuple[str, str], _Leaf], parent_type: GraphQLObjectType, field: str, source: Any) -> Any:
    if field == "__typename":
        return parent_type.name
    leaf = leaves.get((parent_type.name, field))
    return _NOTHING if leaf is None else leaf.value(source)


def _is_awaitable(value: Any) -> bool:
    return type(value) not in _PLAIN and default_is_awaitable(value)


def _leaves(schema: GraphQLSchema) -> dict[tuple[str, str], _Leaf]:
    found: dict[tuple[str, str], _Leaf] = {}
    for type_ in schema.type_map.values():
        if isinstance(type_, GraphQLObjectType) and not type_.name.startswith("__"):
            for name, field in type_.fields.items():
                if (leaf := _Leaf.of(field)) is not None:
                    found[(type_.name, name)] = leaf
    return found
