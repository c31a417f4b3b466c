"""Concepts over GraphQL: the ``Concept`` type, the per-request loader behind ``Memory.concepts``,
and the query fields for a namespace's concepts and the memories that meet at one."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime
from typing import Any

import graphene
from aiodataloader import DataLoader

from hippograph.api import types
from hippograph.api.guard import tenant
from hippograph.api.inputs import NAMESPACE_HELP
from hippograph.api.pagination import offset_connection, offset_window, page_size_argument
from hippograph.api.scalars import DateTime
from hippograph.api.threads import call
from hippograph.graph import concepts as service
from hippograph.store import Store


class Concept(graphene.ObjectType):
    """A common-noun phrase memories are about ("pottery class"): where memories meet that name no
    one. Found by consolidation, keyed by its lowercase lemmas within the namespace."""

    id = graphene.ID(required=True)
    namespace = graphene.String(required=True)
    name = graphene.String(required=True, description="Its lowercase lemmas: 'pottery class'.")
    episode_count = graphene.Int(required=True, description="Episodes about it, forgotten ones included.")
    memory_count = graphene.Int(required=True, description="Episodes and facts about it, not forgotten.")


class ConceptConnection(graphene.relay.Connection):
    class Meta:
        node = Concept


class ConceptLoader(DataLoader[tuple[str, str], list[service.Concept]]):
    """The concepts of memories by (namespace, id), one instance per request; like MemoryLoader it
    batches but does not cache."""

    def __init__(self, store: Store) -> None:
        super().__init__(cache=False)
        self.store = store

    async def batch_load_fn(self, keys: Iterable[tuple[str, str]]) -> list[list[service.Concept]]:
        keys = list(keys)
        by_namespace: dict[str, list[str]] = defaultdict(list)
        for namespace, memory_id in keys:
            by_namespace[namespace].append(memory_id)
        found: dict[tuple[str, str], list[service.Concept]] = {}
        for namespace, ids in by_namespace.items():
            about = await call(service.memory_concepts, self.store, namespace, ids)
            found |= {(namespace, memory_id): concepts for memory_id, concepts in about.items()}
        return [found.get(key, []) for key in keys]


class ConceptQuery:
    """Query fields about concepts; the schema's Query inherits them."""

    concepts = graphene.Field(
        graphene.NonNull(ConceptConnection),
        namespace=graphene.String(description=NAMESPACE_HELP),
        search=graphene.String(description="Only concepts whose name contains this (case-insensitive)."),
        first=page_size_argument(),
        after=graphene.String(),
        description="A namespace's concepts, those most episodes are about first.",
    )
    concept = graphene.Field(
        graphene.NonNull(Concept),
        id=graphene.ID(required=True),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="One concept by id; NOT_FOUND if it is not in the namespace.",
    )
    concept_memories = graphene.Field(
        graphene.NonNull(types.MemoryConnection),
        concept_id=graphene.ID(required=True),
        namespace=graphene.String(description=NAMESPACE_HELP),
        as_of=DateTime(description="Valid time: memories that had happened and facts that held then."),
        known_at=DateTime(description="Transaction time: as Hippograph knew it then."),
        first=page_size_argument(),
        after=graphene.String(),
        description="The memories that meet at a concept, newest first: episodes and facts about it, "
        "never forgotten ones; current facts only unless asOf or knownAt is given.",
    )

    @staticmethod
    async def resolve_concepts(
        root: Any,
        info: graphene.ResolveInfo,
        first: int,
        namespace: str | None = None,
        search: str | None = None,
        after: str | None = None,
    ) -> Any:
        runtime = info.context["runtime"]
        namespace = tenant(info, namespace)
        skip = offset_window(first, after, runtime.settings.limits.max_page_size)
        found = await call(service.list_concepts, runtime.store, namespace, search=search, skip=skip, first=first + 1)
        return offset_connection(ConceptConnection, found, skip, first)

    @staticmethod
    async def resolve_concept(root: Any, info: graphene.ResolveInfo, id: str, namespace: str | None = None) -> Any:
        return await call(service.get_concept, info.context["runtime"].store, tenant(info, namespace), id)

    @staticmethod
    async def resolve_concept_memories(
        root: Any,
        info: graphene.ResolveInfo,
        concept_id: str,
        first: int,
        namespace: str | None = None,
        as_of: datetime | None = None,
        known_at: datetime | None = None,
        after: str | None = None,
    ) -> Any:
        runtime = info.context["runtime"]
        namespace = tenant(info, namespace)
        skip = offset_window(first, after, runtime.settings.limits.max_page_size)
        found = await call(
            service.concept_memories,
            runtime.store,
            namespace,
            concept_id,
            as_of=as_of,
            known_at=known_at,
            skip=skip,
            first=first + 1,
        )
        return offset_connection(types.MemoryConnection, found, skip, first)
