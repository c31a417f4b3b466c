"""The GraphQL query root: each resolver one call into the service layer."""

from __future__ import annotations

from typing import Any

import graphene

from hippograph.api import types
from hippograph.api.concepts import ConceptQuery
from hippograph.api.conflicts import ConflictQuery
from hippograph.api.guard import principal_of, tenant, tenant_or_all
from hippograph.api.inputs import NAMESPACE_HELP, RecallInput, to_recall
from hippograph.api.pagination import (
    connection,
    decode_cursor,
    encode_cursor,
    offset_connection,
    offset_window,
    page_size_argument,
)
from hippograph.api.procedures import ProcedureQuery
from hippograph.api.promotion import PromotionQuery
from hippograph.api.scalars import DateTime
from hippograph.api.summaries import SummaryQuery
from hippograph.api.threads import call
from hippograph.consolidation.blocking import blocking_status
from hippograph.consolidation.shadow import shadow_status
from hippograph.consolidation.status import status
from hippograph.graph.entities import MAX_DEPTH, get_entity, list_entities, neighborhood, timeline
from hippograph.kernel.errors import bad_input
from hippograph.lifecycle.reads import get_memory, list_namespaces, page_memories, read_history, session_episodes
from hippograph.lifecycle.stats import stats
from hippograph.recall.parts import RecallParts
from hippograph.recall.service import recall
from hippograph.runtime import Runtime


def recall_parts(runtime: Runtime) -> RecallParts:
    """What a recall uses of the running service."""
    settings = runtime.settings
    return RecallParts(
        store=runtime.store,
        embedder=runtime.embedder,
        extractor=runtime.extractor,
        access=runtime.access,
        clock=runtime.clock,
        query_threads=runtime.query_threads,
        settings=settings.recall,
        limits=settings.limits,
        relations=settings.relations,
    )


class Query(ConflictQuery, ConceptQuery, ProcedureQuery, PromotionQuery, SummaryQuery, graphene.ObjectType):
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
        first=page_size_argument(),
        after=graphene.String(description="The endCursor of the previous page."),
        description="Episodes and facts, newest first.",
    )
    session_episodes = graphene.Field(
        graphene.NonNull(graphene.List(graphene.NonNull(types.Episode))),
        session=graphene.String(required=True),
        namespace=graphene.String(description=NAMESPACE_HELP),
        last=page_size_argument(),
        description="A session's last episodes (not forgotten ones), in the session's order: a conversation's history.",
    )
    namespaces = graphene.Field(
        graphene.NonNull(graphene.List(graphene.NonNull(types.NamespaceSummary))),
        description="The namespaces this key may use: for a key for every namespace (or a server without keys), "
        "those captured in; for the others, each of its own, with 0 episodes while empty.",
    )

    @staticmethod
    async def resolve_session_episodes(
        root: Any, info: graphene.ResolveInfo, session: str, last: int, namespace: str | None = None
    ) -> Any:
        runtime = info.context["runtime"]
        max_page = runtime.settings.limits.max_page_size
        return await call(session_episodes, runtime.store, tenant(info, namespace), session, last, max_page)

    @staticmethod
    async def resolve_namespaces(root: Any, info: graphene.ResolveInfo) -> Any:
        principal = principal_of(info)
        only = None if principal.all_namespaces else principal.namespaces
        return await call(list_namespaces, info.context["runtime"].store, only)

    @staticmethod
    async def resolve_recall(root: Any, info: graphene.ResolveInfo, input: dict[str, Any]) -> Any:
        request = to_recall(input, tenant(info, input.get("namespace")))
        return await call(recall, recall_parts(info.context["runtime"]), request)

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
            before = decode_cursor(after, "memory")
            if before is None:
                raise bad_input("after is not a cursor this API issued", field="after")
        page = await call(page_memories, runtime.store, namespace, first, before, runtime.settings.limits.max_page_size)
        cursors = [encode_cursor("memory", memory.id) for memory in page.memories]
        return connection(types.MemoryConnection, page.memories, cursors, page.has_next, after is not None)

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
        first=page_size_argument(),
        after=graphene.String(),
    )
    neighborhood = graphene.Field(
        graphene.NonNull(types.Neighborhood),
        entity_id=graphene.ID(required=True),
        namespace=graphene.String(description=NAMESPACE_HELP),
        depth=graphene.Int(default_value=1, description=f"1..{MAX_DEPTH} hops."),
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
    shadow_mode = graphene.Field(
        graphene.NonNull(types.ShadowMode),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="Whether the namespace consolidates in shadow mode, and the episodes parked by it.",
    )
    block_destructive = graphene.Field(
        graphene.NonNull(types.DestructiveBlocking),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="Whether the namespace's consolidation blocks destructive proposals, and how many it blocked.",
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
        skip = offset_window(first, after, runtime.settings.limits.max_page_size)
        found = await call(
            list_entities, runtime.store, namespace, search=search, entity_type=type, skip=skip, first=first + 1
        )
        return offset_connection(types.EntityConnection, found, skip, first)

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
            neighborhood,
            runtime.store,
            tenant(info, namespace),
            entity_id,
            depth=depth,
            as_of=as_of or now,
            known_at=known_at or now,
            scale=runtime.settings.relations,
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
        return await call(stats, info.context["runtime"].store, info.context["runtime"].clock, tenant(info, namespace))

    @staticmethod
    async def resolve_shadow_mode(root: Any, info: graphene.ResolveInfo, namespace: str | None = None) -> Any:
        return await call(shadow_status, info.context["runtime"].store, tenant(info, namespace))

    @staticmethod
    async def resolve_block_destructive(root: Any, info: graphene.ResolveInfo, namespace: str | None = None) -> Any:
        return await call(blocking_status, info.context["runtime"].store, tenant(info, namespace))

    @staticmethod
    async def resolve_status(root: Any, info: graphene.ResolveInfo, namespace: str | None = None) -> Any:
        runtime = info.context["runtime"]
        return await call(status, runtime.store, runtime.clock, tenant_or_all(info, namespace))
