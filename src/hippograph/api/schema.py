"""The GraphQL schema: query and mutation roots, each resolver one call into the service layer."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import graphene

from hippograph.api import types
from hippograph.api.concepts import ConceptQuery
from hippograph.api.connection import connection as _connection
from hippograph.api.defaults import fill_defaults_for_nulls
from hippograph.api.errors import coded
from hippograph.api.guard import actor, guard_schema, tenant, tenant_or_all
from hippograph.api.inputs import (
    NAMESPACE_HELP,
    CaptureInput,
    ForgetInput,
    ModifyInput,
    RecallInput,
    RememberInput,
    to_capture,
    to_forget,
    to_modify,
    to_recall,
    to_remember,
)
from hippograph.api.instrument import instrument_schema
from hippograph.api.scalars import DateTime
from hippograph.api.threads import call
from hippograph.capture.service import capture
from hippograph.consolidation.status import status
from hippograph.consolidation.worker import consolidate
from hippograph.curation import add_alias, merge_entities
from hippograph.entities import get_entity, list_entities, neighborhood, timeline
from hippograph.errors import HippographError, bad_input
from hippograph.history import read_history
from hippograph.lifecycle.erase import erase
from hippograph.lifecycle.events import EventKind, MemoryEvent
from hippograph.lifecycle.forget import forget, recover
from hippograph.lifecycle.modify import modify
from hippograph.lifecycle.pin import set_pinned
from hippograph.lifecycle.remember import remember
from hippograph.lifecycle.stats import stats
from hippograph.lifecycle.sweep import sweep
from hippograph.memories import get_memory, page_memories
from hippograph.model import CaptureOutcome
from hippograph.recall.service import recall

MAX_CONSOLIDATE = 100_000


def _memory_change(description: str) -> graphene.Field:
    """A mutation of one memory by id that returns it, with an optional reason for History."""
    return graphene.Field(
        graphene.NonNull(types.Memory),
        id=graphene.ID(required=True),
        namespace=graphene.String(description=NAMESPACE_HELP),
        reason=graphene.String(),
        description=description,
    )


class Query(ConceptQuery, graphene.ObjectType):
    recall = graphene.Field(
        graphene.NonNull(types.RecallResult),
        input=graphene.Argument(graphene.NonNull(RecallInput)),
        description="Memories relevant to a query, fused from the keyword and vector channels.",
    )
    memory = graphene.Field(
        types.Memory,
        id=graphene.ID(required=True),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="One memory by id; an error with code NOT_FOUND if it is not in the namespace.",
    )
    memories = graphene.Field(
        graphene.NonNull(types.MemoryConnection),
        namespace=graphene.String(description=NAMESPACE_HELP),
        first=graphene.Int(default_value=20, description="1..100."),
        after=graphene.String(description="The endCursor of the previous page."),
        description="Episodes and facts, newest first.",
    )

    @staticmethod
    async def resolve_recall(root: Any, info: graphene.ResolveInfo, input: dict[str, Any]) -> Any:
        return await call(recall, info.context["runtime"], to_recall(input, tenant(info, input.get("namespace"))))

    @staticmethod
    async def resolve_memory(root: Any, info: graphene.ResolveInfo, id: str, namespace: str | None = None) -> Any:
        return await call(get_memory, info.context["runtime"].store, tenant(info, namespace), id)

    @staticmethod
    async def resolve_memories(
        root: Any,
        info: graphene.ResolveInfo,
        first: int,
        namespace: str | None = None,
        after: str | None = None,
    ) -> types.MemoryConnection:
        runtime = info.context["runtime"]
        namespace = tenant(info, namespace)
        before = None
        if after is not None:
            before = types.decode_cursor(after, "memory")
            if before is None:
                raise bad_input("after is not a cursor this API issued", field="after")
        page = await call(page_memories, runtime.store, namespace, first, before, runtime.settings.limits.max_page_size)
        cursors = [types.encode_cursor("memory", memory.id) for memory in page.memories]
        return _connection(types.MemoryConnection, page.memories, cursors, page.has_next, after is not None)

    entity = graphene.Field(
        graphene.NonNull(types.Entity),
        id=graphene.ID(required=True),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="One entity by id; NOT_FOUND if it is not in the namespace.",
    )
    entities = graphene.Field(
        graphene.NonNull(types.EntityConnection),
        namespace=graphene.String(description=NAMESPACE_HELP),
        search=graphene.String(description="Full-text match on the name; without it, most mentioned first."),
        type=graphene.String(description="Only entities of this type (person, place, organization, ...)."),
        first=graphene.Int(default_value=20, description="1..100."),
        after=graphene.String(),
    )
    neighborhood = graphene.Field(
        graphene.NonNull(types.Neighborhood),
        entity_id=graphene.ID(required=True),
        namespace=graphene.String(description=NAMESPACE_HELP),
        depth=graphene.Int(default_value=1, description="1..3 hops."),
        as_of=DateTime(description="Valid time: what held in the world then. Default: now."),
        known_at=DateTime(description="Transaction time: as Hippograph knew it then. Default: now."),
    )
    timeline = graphene.Field(
        graphene.NonNull(graphene.List(graphene.NonNull(types.TimelineEntry))),
        entity_id=graphene.ID(required=True),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="The facts about an entity with validity intervals and version chains, oldest first.",
    )
    history = graphene.Field(
        graphene.NonNull(graphene.List(graphene.NonNull(types.HistoryEvent))),
        id=graphene.ID(required=True),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="The audit trail of a memory or entity, oldest first.",
    )
    stats = graphene.Field(
        graphene.NonNull(types.Stats),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="Census of a namespace: labels, kinds, statuses, lifecycle states.",
    )
    status = graphene.Field(
        graphene.NonNull(types.Status),
        namespace=graphene.String(description="One namespace; all when omitted."),
    )

    @staticmethod
    async def resolve_entity(root: Any, info: graphene.ResolveInfo, id: str, namespace: str | None = None) -> Any:
        return await call(get_entity, info.context["runtime"].store, tenant(info, namespace), id)

    @staticmethod
    async def resolve_entities(
        root: Any,
        info: graphene.ResolveInfo,
        first: int,
        namespace: str | None = None,
        search: str | None = None,
        type: str | None = None,
        after: str | None = None,
    ) -> types.EntityConnection:
        runtime = info.context["runtime"]
        namespace = tenant(info, namespace)
        if not 0 < first <= runtime.settings.limits.max_page_size:
            raise bad_input(f"first must be between 1 and {runtime.settings.limits.max_page_size}", field="first")
        skip = 0
        if after is not None:
            offset = types.decode_offset(after)
            if offset is None:
                raise bad_input("after is not a cursor this API issued", field="after")
            skip = offset + 1
        found = await call(
            list_entities, runtime.store, namespace, search=search, entity_type=type, skip=skip, first=first + 1
        )
        page = found[:first]
        cursors = [types.encode_cursor("offset", str(skip + i)) for i in range(len(page))]
        return _connection(types.EntityConnection, page, cursors, len(found) > first, skip > 0)

    @staticmethod
    async def resolve_neighborhood(
        root: Any,
        info: graphene.ResolveInfo,
        entity_id: str,
        depth: int,
        namespace: str | None = None,
        as_of: Any = None,
        known_at: Any = None,
    ) -> Any:
        runtime = info.context["runtime"]
        now = runtime.clock()
        return await call(
            neighborhood, runtime.store, tenant(info, namespace), entity_id, depth=depth, as_of=as_of or now, known_at=known_at or now
        )

    @staticmethod
    async def resolve_timeline(
        root: Any, info: graphene.ResolveInfo, entity_id: str, namespace: str | None = None
    ) -> Any:
        return await call(timeline, info.context["runtime"].store, tenant(info, namespace), entity_id)

    @staticmethod
    async def resolve_history(root: Any, info: graphene.ResolveInfo, id: str, namespace: str | None = None) -> Any:
        return await call(read_history, info.context["runtime"].store, tenant(info, namespace), id)

    @staticmethod
    async def resolve_stats(root: Any, info: graphene.ResolveInfo, namespace: str | None = None) -> Any:
        return await call(stats, info.context["runtime"], tenant(info, namespace))

    @staticmethod
    async def resolve_status(root: Any, info: graphene.ResolveInfo, namespace: str | None = None) -> Any:
        return await call(status, info.context["runtime"], tenant_or_all(info, namespace))


class Mutation(graphene.ObjectType):
    capture = graphene.Field(
        graphene.NonNull(types.CaptureResult),
        input=graphene.Argument(graphene.NonNull(CaptureInput)),
        description="Store one episode (or recognise it as a duplicate or a corroboration).",
    )
    capture_batch = graphene.Field(
        graphene.NonNull(graphene.List(graphene.NonNull(types.CaptureResult))),
        inputs=graphene.Argument(graphene.NonNull(graphene.List(graphene.NonNull(CaptureInput)))),
        description="Store up to 64 episodes in one transaction: all are stored or none.",
    )

    consolidate = graphene.Field(
        graphene.NonNull(types.ConsolidationResult),
        namespace=graphene.String(description=NAMESPACE_HELP),
        limit=graphene.Int(default_value=1000),
        description="Consolidate up to limit raw episodes now; returns when done.",
    )

    add_alias = graphene.Field(
        graphene.NonNull(types.Entity),
        entity_id=graphene.ID(required=True),
        alias=graphene.String(required=True),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="Another name for an entity, in this namespace: consolidation resolves it to the entity.",
    )
    merge_entities = graphene.Field(
        graphene.NonNull(types.Entity),
        source_id=graphene.ID(required=True),
        target_id=graphene.ID(required=True),
        reason=graphene.String(required=True),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="Repair a split: fold source into target; the source stays as a tombstone, with History.",
    )

    remember = graphene.Field(
        graphene.NonNull(types.RememberResult),
        input=graphene.Argument(graphene.NonNull(RememberInput)),
        description="Store an explicit fact of any kind; it supersedes the current one with its key (STATUS: subject).",
    )

    modify = graphene.Field(
        graphene.NonNull(types.Fact),
        input=graphene.Argument(graphene.NonNull(ModifyInput)),
        description="Correct a fact: a new version supersedes it (VERSION_CONFLICT, EPISODE_IMMUTABLE).",
    )

    erase = graphene.Field(
        graphene.NonNull(types.EraseResult),
        id=graphene.ID(required=True),
        reason=graphene.String(required=True),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="Irreversibly erase a memory, what it alone supported, and the content of its History.",
    )

    forget = graphene.Field(
        graphene.NonNull(types.ForgetResult),
        input=graphene.Argument(graphene.NonNull(ForgetInput)),
        description="Soft-forget memories: PREVIEW, then EXECUTE with a reason (and the token above the threshold).",
    )
    recover = _memory_change("Bring back a forgotten memory within the retention window (default 30 days).")

    pin = _memory_change("Pin a memory: it never decays and no sweep expires it.")
    unpin = _memory_change("Unpin a memory: it decays again like any of its kind.")
    sweep = graphene.Field(
        graphene.NonNull(types.SweepReport),
        namespace=graphene.String(description="One namespace; all when omitted."),
        description="Run the sweeps now: event TTL, erasure past the recovery window, History retention.",
    )

    @staticmethod
    async def resolve_pin(
        root: Any, info: graphene.ResolveInfo, id: str, namespace: str | None = None, reason: str | None = None
    ) -> Any:
        return await call(set_pinned, info.context["runtime"], tenant(info, namespace), id, True, actor(info), reason)

    @staticmethod
    async def resolve_unpin(
        root: Any, info: graphene.ResolveInfo, id: str, namespace: str | None = None, reason: str | None = None
    ) -> Any:
        return await call(set_pinned, info.context["runtime"], tenant(info, namespace), id, False, actor(info), reason)

    @staticmethod
    async def resolve_sweep(root: Any, info: graphene.ResolveInfo, namespace: str | None = None) -> Any:
        return await call(sweep, info.context["runtime"], tenant_or_all(info, namespace))

    @staticmethod
    async def resolve_forget(root: Any, info: graphene.ResolveInfo, input: dict[str, Any]) -> Any:
        request = to_forget(input, tenant(info, input.get("namespace")), actor(info))
        return await call(forget, info.context["runtime"], request)

    @staticmethod
    async def resolve_recover(
        root: Any, info: graphene.ResolveInfo, id: str, namespace: str | None = None, reason: str | None = None
    ) -> Any:
        return await call(recover, info.context["runtime"], tenant(info, namespace), id, reason, actor(info))

    @staticmethod
    async def resolve_erase(
        root: Any, info: graphene.ResolveInfo, id: str, reason: str, namespace: str | None = None
    ) -> Any:
        return await call(erase, info.context["runtime"], tenant(info, namespace), id, reason, actor(info))

    @staticmethod
    async def resolve_modify(root: Any, info: graphene.ResolveInfo, input: dict[str, Any]) -> Any:
        request = to_modify(input, tenant(info, input.get("namespace")), actor(info))
        return await call(modify, info.context["runtime"], request)

    @staticmethod
    async def resolve_remember(root: Any, info: graphene.ResolveInfo, input: dict[str, Any]) -> Any:
        request = to_remember(input, tenant(info, input.get("namespace")), actor(info))
        return await call(remember, info.context["runtime"], request)

    @staticmethod
    async def resolve_add_alias(
        root: Any, info: graphene.ResolveInfo, entity_id: str, alias: str, namespace: str | None = None
    ) -> Any:
        return await call(add_alias, info.context["runtime"], tenant(info, namespace), entity_id, alias, actor(info))

    @staticmethod
    async def resolve_merge_entities(
        root: Any,
        info: graphene.ResolveInfo,
        source_id: str,
        target_id: str,
        reason: str,
        namespace: str | None = None,
    ) -> Any:
        return await call(
            merge_entities, info.context["runtime"], tenant(info, namespace), source_id, target_id, reason, actor(info)
        )

    @staticmethod
    async def resolve_consolidate(
        root: Any, info: graphene.ResolveInfo, limit: int, namespace: str | None = None
    ) -> Any:
        namespace = tenant(info, namespace)
        if not 0 < limit <= MAX_CONSOLIDATE:
            raise bad_input(f"limit must be between 1 and {MAX_CONSOLIDATE}", field="limit")
        return await call(consolidate, info.context["runtime"], namespace=namespace, limit=limit)

    @staticmethod
    async def resolve_capture(root: Any, info: graphene.ResolveInfo, input: dict[str, Any]) -> CaptureOutcome:
        item = to_capture(input, tenant(info, input.get("namespace")))
        outcomes = await call(capture, info.context["runtime"], [item], actor(info))
        return outcomes[0]

    @staticmethod
    async def resolve_capture_batch(
        root: Any, info: graphene.ResolveInfo, inputs: list[dict[str, Any]]
    ) -> list[CaptureOutcome]:
        # Every input's namespace is checked before any is written.
        items = [to_capture(item, tenant(info, item.get("namespace"))) for item in inputs]
        return await call(capture, info.context["runtime"], items, actor(info))


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


# Episode and Fact are reached only through the Memory interface, so they are named here.
schema = graphene.Schema(query=Query, mutation=Mutation, subscription=Subscription, types=[types.Episode, types.Fact])
# Every root field: an explicit null means the argument's default, then roles and budgets.
guard_schema(schema.graphql_schema, lambda context: context["runtime"].settings.limits)
fill_defaults_for_nulls(schema.graphql_schema)
instrument_schema(schema.graphql_schema)  # outermost: a refusal is counted under its code


def schema_sdl() -> str:
    """The schema as SDL, the form checked in at graphql/schema.graphql."""
    return str(schema).rstrip() + "\n"
