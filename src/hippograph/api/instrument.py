"""Every root field counted by its outcome and timed, over HTTP and WebSocket alike.

Root resolvers are wrapped once, outside the guard (api/guard.py), so an operation the guard
refuses is counted under the code it was refused with. The operation label is the root field's
name in the schema (never an alias the client chose), so the labels are the schema's root fields.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Awaitable, Callable
from inspect import isawaitable
from typing import Any

from graphql import GraphQLSchema
from hippograph.api.errors import code_of
from hippograph.kernel import metrics


def instrument_schema(schema: GraphQLSchema) -> None:
    """Wrap the root fields of ``schema`` in place; a subscription is counted when it starts,
    and not timed (it lasts as long as its client listens)."""
    for root in (schema.query_type, schema.mutation_type, schema.subscription_type):
        if root is None:
            continue
        for name, field in root.fields.items():
            if field.subscribe is not None:
                field.subscribe = _instrumented(field.subscribe, name, timed=False)
            elif field.resolve is not None:
                field.resolve = _instrumented(field.resolve, name, timed=True)


def _instrumented(resolve: Callable[..., Any], name: str, *, timed: bool) -> Callable[..., Any]:
    @functools.wraps(resolve)
    def instrumented(root: Any, info: Any, **arguments: Any) -> Any:
        start = time.perf_counter()
        try:
            result = resolve(root, info, **arguments)
        except Exception as error:
            _done(name, start, timed, error)
            raise
        if isawaitable(result):
            return _awaited(result, name, start, timed)
        _done(name, start, timed, None)
        return result

    return instrumented


async def _awaited(result: Awaitable[Any], name: str, start: float, timed: bool) -> Any:
    try:
        value = await result
    except Exception as error:
        _done(name, start, timed, error)
        raise
    _done(name, start, timed, None)
    return value


def _done(name: str, start: float, timed: bool, error: Exception | None) -> None:
    code = metrics.OK if error is None else code_of(error).value
    metrics.operation_done(name, code, time.perf_counter() - start if timed else None)
