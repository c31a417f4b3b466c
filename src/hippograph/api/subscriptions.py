"""The GraphQL subscription root: memory events of a namespace as they happen, read from the
store's change record (store/changes.py), so a subscriber hears the writes of every server sharing
the store, once each and in order. Each event carries a cursor; a subscriber that reconnects with
``after: <the last cursor it saw>`` misses nothing."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import graphene

from hippograph.access import Principal
from hippograph.api import types
from hippograph.api.auth import Gate
from hippograph.api.errors import coded
from hippograph.api.guard import principal_of, tenant
from hippograph.api.inputs import NAMESPACE_HELP
from hippograph.api.threads import call
from hippograph.kernel.errors import ErrorCode, HippographError, bad_input
from hippograph.kernel.events import EventKind, MemoryEvent
from hippograph.lifecycle.reads import change_head, changes_after
from hippograph.runtime import Runtime

# Changes read at a time: a subscriber resuming far behind catches up a page per read.
PAGE = 200


class Subscription(graphene.ObjectType):
    memory_events = graphene.Field(
        graphene.NonNull(types.MemoryEvent),
        namespace=graphene.String(description=NAMESPACE_HELP),
        kinds=graphene.List(graphene.NonNull(types.MemoryEventKind), description="Only these; all when omitted."),
        after=graphene.String(
            description="Resume after the event with this cursor (the last one received): every event since, "
            "then new ones. Omitted: from now on."
        ),
        description="Memories created, superseded, contradicted, forgotten, recovered or erased in a namespace, "
        "through any server sharing the store, in the order their writes committed. Ends with UNAUTHENTICATED "
        "once the key is revoked, or FORBIDDEN once it may no longer use the namespace.",
    )

    @staticmethod
    async def subscribe_memory_events(
        root: Any,
        info: graphene.ResolveInfo,
        namespace: str | None = None,
        kinds: list[Any] | None = None,
        after: str | None = None,
    ) -> AsyncIterator[MemoryEvent]:
        runtime: Runtime = info.context["runtime"]
        gate: Gate = info.context["gate"]
        principal = principal_of(info)
        try:
            namespace = tenant(info, namespace)
            head = await call(change_head, runtime.store, namespace)
            position = head if after is None else _cursor(after)
            if position > head:
                raise bad_input(f"after: cursor {after} is ahead of the namespace's events")
            chosen = frozenset(EventKind(getattr(kind, "value", kind)) for kind in kinds or ()) or frozenset(EventKind)
            first = await call(changes_after, runtime.store, namespace, position, PAGE)
            if first and first[0].seq != position + 1:
                raise bad_input(
                    f"the events after cursor {after} are no longer kept "
                    f"({runtime.settings.lifecycle.change_retention_days:g} days); subscribe without a cursor"
                )
        except HippographError as error:
            # Raised from the stream, graphql-server sends it as the first result, code included.
            raise coded(error) from error
        page = first
        while True:
            # A subscription outlives the check made when it opened: its key is looked at again at
            # every read of the change record (the server reads the keys more rarely still).
            _still_allowed(gate, principal, namespace)
            for event in page:
                position = event.seq
                if event.kind in chosen:
                    yield event
            if len(page) < PAGE:
                await asyncio.sleep(runtime.settings.server.events_poll_s)
            page = await call(changes_after, runtime.store, namespace, position, PAGE)


def _still_allowed(gate: Gate, principal: Principal, namespace: str) -> None:
    now = gate.current(principal)
    if now is None:
        raise coded(HippographError(ErrorCode.UNAUTHENTICATED, "the API key of this subscription is no longer valid"))
    if not now.may_use(namespace):
        raise coded(HippographError(ErrorCode.FORBIDDEN, f"this key may no longer use namespace {namespace!r}"))


def _cursor(after: str) -> int:
    if not after.isascii() or not after.isdigit() or len(after) > 18:
        raise bad_input("after: not a memoryEvents cursor")
    return int(after)
