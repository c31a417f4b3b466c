"""Session summaries over GraphQL: the types and the query field the schema's Query inherits."""

from __future__ import annotations

from typing import Any

import graphene

from hippograph import summaries as service
from hippograph.api.guard import tenant
from hippograph.api.inputs import NAMESPACE_HELP
from hippograph.api.scalars import DateTime
from hippograph.api.threads import call


class SummaryLine(graphene.ObjectType):
    """One line of a summary: the text of the episode it quotes."""

    text = graphene.String(required=True)
    episode_ids = graphene.NonNull(graphene.List(graphene.NonNull(graphene.ID)))

    @staticmethod
    def resolve_episode_ids(root: service.Line, info: graphene.ResolveInfo) -> Any:
        return list(root.sources)


class SessionSummary(graphene.ObjectType):
    """The turns that best stand for a session (extractive: quoted, never written), in its order."""

    namespace = graphene.String(required=True)
    session = graphene.String(required=True)
    lines = graphene.NonNull(graphene.List(graphene.NonNull(SummaryLine)))
    turns = graphene.Int(required=True, description="The session's turns it was chosen from (not forgotten).")
    updated_at = DateTime(required=True)


class SummaryQuery:
    """Query fields about summaries; the schema's Query inherits them."""

    session_summary = graphene.Field(
        graphene.NonNull(SessionSummary),
        session=graphene.String(required=True),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="What a session was about: the turns that cover its recurring words best, each citing its "
        "episode; kept, and brought up to date when the session has grown. NOT_FOUND for an unknown session.",
    )

    @staticmethod
    async def resolve_session_summary(
        root: Any, info: graphene.ResolveInfo, session: str, namespace: str | None = None
    ) -> Any:
        runtime = info.context["runtime"]
        namespace = tenant(info, namespace)
        return await call(service.session_summary, runtime.store, runtime.clock(), namespace, session)
