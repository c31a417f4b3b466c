"""The GraphQL subscription root: memory events of a namespace as they happen."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import graphene

from hippograph.api import types
from hippograph.api.errors import coded
from hippograph.api.guard import tenant
from hippograph.api.inputs import NAMESPACE_HELP
from hippograph.kernel.errors import HippographError
from hippograph.kernel.events import EventKind, MemoryEvent


class Subscription(graphene.ObjectType):
    memory_events = graphene.Field(
        graphene.NonNull(types.MemoryEvent),
        namespace=graphene.String(description=NAMESPACE_HELP),
        kinds=graphene.List(graphene.NonNull(types.MemoryEventKind), description="Only these; all when omitted."),
        description="Memories created, superseded, contradicted, forgotten, recovered or erased in a namespace.",
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
        async with info.context["runtime"].events.subscribe(namespace, chosen) as queue:
            while True:
                yield await queue.get()
