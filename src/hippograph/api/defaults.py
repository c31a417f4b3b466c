"""An explicit null where an argument or input field has a default means the default.

GraphQL hands a resolver the null (``first: null``, ``confidence: null``), which resolvers and
services written for the default then trip over. Filling the defaults in here, once for every
root field, spares each resolver the check; the service layer still validates the values.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from graphql import (
    GraphQLArgument,
    GraphQLInputField,
    GraphQLInputObjectType,
    GraphQLInputType,
    GraphQLList,
    GraphQLSchema,
    Undefined,
    get_nullable_type,
)

_FILLED = "_hippograph_fills_defaults"


def fill_defaults_for_nulls(schema: GraphQLSchema) -> None:
    """Wrap the resolvers (and subscribers) of the root fields; calling it again changes nothing."""
    for root in (schema.query_type, schema.mutation_type, schema.subscription_type):
        for field in (root.fields if root else {}).values():
            if not field.args:
                continue
            if field.resolve is not None and not getattr(field.resolve, _FILLED, False):
                field.resolve = _filling(field.resolve, field.args)
            if field.subscribe is not None and not getattr(field.subscribe, _FILLED, False):
                field.subscribe = _filling(field.subscribe, field.args)


def _filling(resolver: Callable[..., Any], arguments: Mapping[str, GraphQLArgument]) -> Callable[..., Any]:
    @functools.wraps(resolver)
    def resolve(root: Any, info: Any, **args: Any) -> Any:
        _fill(args, arguments)
        return resolver(root, info, **args)

    setattr(resolve, _FILLED, True)
    return resolve


def _fill(values: dict[str, Any], fields: Mapping[str, GraphQLArgument | GraphQLInputField]) -> None:
    for name, field in fields.items():
        key = field.out_name or name
        if key not in values:
            continue
        if values[key] is None:
            if field.default_value is not Undefined:
                values[key] = field.default_value
                # graphene's input containers mirror their keys as attributes.
                if hasattr(values, key):
                    setattr(values, key, field.default_value)
        else:
            _fill_within(values[key], field.type)


def _fill_within(value: Any, type_: GraphQLInputType) -> None:
    # graphql-core types an input type's wrappers as the abstract GraphQLWrappingType, which
    # get_nullable_type's overloads (GraphQLNonNull or a nullable type) do not name.
    nullable = get_nullable_type(type_)  # type: ignore[arg-type]
    if isinstance(nullable, GraphQLList) and isinstance(value, list):
        for item in value:
            if item is not None:
                _fill_within(item, nullable.of_type)
    elif isinstance(nullable, GraphQLInputObjectType) and isinstance(value, dict):
        _fill(value, nullable.fields)
