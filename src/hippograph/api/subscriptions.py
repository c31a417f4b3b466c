"""The GraphQL subscription root: memory events of a namespace as they happen."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import graphene

from hippograph.access import Principal
from hippograph.api import types
from hippograph.api.auth import Gate
from hippograph.api.errors import coded
from hippograph.api.guard import principal_of, tenant
from hippograph.api.inputs import NAMESPACE_HELP
from hippograph.kernel.errors import ErrorCode, HippographError
from hippograph.kernel.events import EventKind, MemoryEvent


class Subscription(graphene.ObjectType):
    memory_events = graphene.Field(
        graphene.NonNull(types.MemoryEvent),
        namespace=graphene.String(description=NAMESPACE_HELP),
        kinds=graphene.List(graphene.NonNull(types.MemoryEventKind), description="Only these; all when omitted."),
        description="Memories created, superseded, contradicted, forgotten, recovered or erased in a namespace. "
        "Ends with UNAUTHENTICATED once the key is revoked, or FORBIDDEN once it may no longer use the namespace.",
    )

    @staticmethod
    async def subscribe_memory_events(
        root: Any, info: graphene.ResolveInfo, namespace: str | None = None, kinds: list[Any] | None = None
    ) -> AsyncIterator[MemoryEvent]:
        try:
            namespace = tenant(info, namespace)
        except HippographError as error:
            # Raised from the stream, graphql-server sends it as the first result, code included.
            raise coded(error) from error
        chosen = [EventKind(getattr(kind, "value", kind)) for kind in kinds or ()]
        gate: Gate = info.context["gate"]
        principal = principal_of(info)
        # A subscription outlives the check made when it opened: the key is looked at again as
        # often as the server reads the keys, and before every event.
        every_s = gate.access.key_refresh_s
        async with info.context["runtime"].events.subscribe(namespace, chosen) as queue:
            getter: asyncio.Future[MemoryEvent] | None = None
            try:
                while True:
                    getter = getter or asyncio.ensure_future(queue.get())
                    await asyncio.wait({getter}, timeout=every_s)
                    _still_allowed(gate, principal, namespace)
                    if getter.done():
                        event, getter = getter.result(), None
                        yield event
            finally:
                if getter is not None:
                    getter.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await getter


def _still_allowed(gate: Gate, principal: Principal, namespace: str) -> None:
    now = gate.current(principal)
    if now is None:
        raise coded(HippographError(ErrorCode.UNAUTHENTICATED, "the API key of this subscription is no longer valid"))
    if not now.may_use(namespace):
        raise coded(HippographError(ErrorCode.FORBIDDEN, f"this key may no longer use namespace {namespace!r}"))
