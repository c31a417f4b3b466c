"""Summaries and projects over GraphQL: the types, the query fields the schema's Query inherits
and the mutation its Mutation inherits."""

from __future__ import annotations

from typing import Any

import graphene

from hippograph import summaries as service
from hippograph.api.guard import tenant
from hippograph.api.inputs import NAMESPACE_HELP
from hippograph.api.scalars import DateTime
from hippograph.api.summary_types import SummaryLine
from hippograph.api.threads import call


class SessionSummary(graphene.ObjectType):
    """The turns that best stand for a session (extractive: quoted, never written), in its order."""

    namespace = graphene.String(required=True)
    session = graphene.String(required=True)
    lines = graphene.NonNull(graphene.List(graphene.NonNull(SummaryLine)))
    turns = graphene.Int(required=True, description="The session's turns it was chosen from (not forgotten).")
    updated_at = DateTime(required=True)


class ProjectOverview(graphene.ObjectType):
    """The lines of a project's session summaries that cover the project best, in its order."""

    namespace = graphene.String(required=True)
    project = graphene.String(required=True)
    sessions = graphene.NonNull(
        graphene.List(graphene.NonNull(graphene.String)), description="Its sessions, oldest first."
    )
    lines = graphene.NonNull(graphene.List(graphene.NonNull(SummaryLine)))
    turns = graphene.Int(required=True, description="The turns of its sessions (not forgotten).")
    updated_at = DateTime(required=True)


class SessionAssignment(graphene.ObjectType):
    namespace = graphene.String(required=True)
    session = graphene.String(required=True)
    project = graphene.String(description="Null: the session is in no project now.")


class SummaryQuery:
    """Query fields about summaries; the schema's Query inherits them."""

    session_summary = graphene.Field(
        graphene.NonNull(SessionSummary),
        session=graphene.String(required=True),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="What a session was about: the turns that cover its recurring words best, each citing its "
        "episode; kept, and brought up to date when the session has grown. NOT_FOUND for an unknown session.",
    )
    project_overview = graphene.Field(
        graphene.NonNull(ProjectOverview),
        project=graphene.String(required=True),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="Where a project stands: chosen among its sessions' summaries, each line citing its episode; "
        "kept, and chosen again when one of its sessions changed. NOT_FOUND for a project with no session.",
    )

    @staticmethod
    async def resolve_session_summary(
        root: Any, info: graphene.ResolveInfo, session: str, namespace: str | None = None
    ) -> Any:
        runtime = info.context["runtime"]
        namespace = tenant(info, namespace)
        return await call(service.session_summary, runtime.store, runtime.clock(), namespace, session)

    @staticmethod
    async def resolve_project_overview(
        root: Any, info: graphene.ResolveInfo, project: str, namespace: str | None = None
    ) -> Any:
        runtime = info.context["runtime"]
        namespace = tenant(info, namespace)
        return await call(service.project_overview, runtime.store, runtime.clock(), namespace, project)


class SummaryMutation:
    """Mutations about projects; the schema's Mutation inherits them."""

    assign_session = graphene.Field(
        graphene.NonNull(SessionAssignment),
        session=graphene.String(required=True),
        project=graphene.String(description="Null takes the session out of its project."),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="Put a session in a project (a capture may name one too). NOT_FOUND for an unknown session.",
    )

    @staticmethod
    async def resolve_assign_session(
        root: Any, info: graphene.ResolveInfo, session: str, project: str | None = None, namespace: str | None = None
    ) -> Any:
        runtime = info.context["runtime"]
        namespace = tenant(info, namespace)
        return await call(service.assign_session, runtime.store, runtime.settings.limits, namespace, session, project)
