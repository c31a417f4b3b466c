"""The GraphQL schema: query and mutation roots, each resolver one call into the service layer."""

from __future__ import annotations

from typing import Any

import graphene

from hippograph.api import types
from hippograph.api.inputs import DEFAULT_NAMESPACE, CaptureInput, RecallInput, to_capture, to_recall
from hippograph.api.threads import call
from hippograph.capture.service import capture
from hippograph.errors import bad_input
from hippograph.memories import get_memory, page_memories
from hippograph.model import CaptureOutcome
from hippograph.recall.service import recall


class Query(graphene.ObjectType):
    recall = graphene.Field(
        graphene.NonNull(types.RecallResult),
        input=graphene.Argument(graphene.NonNull(RecallInput)),
        description="Memories relevant to a query, fused from the keyword and vector channels.",
    )
    memory = graphene.Field(
        types.Memory,
        id=graphene.ID(required=True),
        namespace=graphene.String(default_value=DEFAULT_NAMESPACE),
        description="One memory by id; an error with code NOT_FOUND if it is not in the namespace.",
    )
    memories = graphene.Field(
        graphene.NonNull(types.MemoryConnection),
        namespace=graphene.String(default_value=DEFAULT_NAMESPACE),
        first=graphene.Int(default_value=20, description="1..100."),
        after=graphene.String(description="The endCursor of the previous page."),
        description="Episodes and facts, newest first.",
    )

    @staticmethod
    async def resolve_recall(root: Any, info: graphene.ResolveInfo, input: dict[str, Any]) -> Any:
        return await call(recall, info.context["runtime"], to_recall(input))

    @staticmethod
    async def resolve_memory(root: Any, info: graphene.ResolveInfo, id: str, namespace: str) -> Any:
        return await call(get_memory, info.context["runtime"].store, namespace, id)

    @staticmethod
    async def resolve_memories(
        root: Any,
        info: graphene.ResolveInfo,
        namespace: str,
        first: int,
        after: str | None = None,
    ) -> types.MemoryConnection:
        runtime = info.context["runtime"]
        before = None
        if after is not None:
            before = types.id_from_cursor(after)
            if before is None:
                raise bad_input("after is not a cursor this API issued", field="after")
        page = await call(page_memories, runtime.store, namespace, first, before, runtime.settings.limits.max_page_size)
        edges = [
            types.MemoryConnection.Edge(node=memory, cursor=types.cursor_for(memory.id)) for memory in page.memories
        ]
        return types.MemoryConnection(
            edges=edges,
            page_info=graphene.relay.PageInfo(
                has_next_page=page.has_next,
                has_previous_page=after is not None,
                start_cursor=edges[0].cursor if edges else None,
                end_cursor=edges[-1].cursor if edges else None,
            ),
        )


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

    @staticmethod
    async def resolve_capture(root: Any, info: graphene.ResolveInfo, input: dict[str, Any]) -> CaptureOutcome:
        outcomes = await call(capture, info.context["runtime"], [to_capture(input)])
        return outcomes[0]

    @staticmethod
    async def resolve_capture_batch(
        root: Any, info: graphene.ResolveInfo, inputs: list[dict[str, Any]]
    ) -> list[CaptureOutcome]:
        return await call(capture, info.context["runtime"], [to_capture(item) for item in inputs])


# Episode and Fact are reached only through the Memory interface, so they are named here.
schema = graphene.Schema(query=Query, mutation=Mutation, types=[types.Episode, types.Fact])


def schema_sdl() -> str:
    """The schema as SDL, the form checked in at graphql/schema.graphql."""
    return str(schema).rstrip() + "\n"
