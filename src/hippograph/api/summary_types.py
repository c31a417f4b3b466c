"""The GraphQL types of summaries that other types hold: a summary's line, and the card recall
shows beside its hits. Apart from api/summaries.py so that api/types.py can hold them."""

from __future__ import annotations

from typing import Any

import graphene

from hippograph import summaries as service
from hippograph.api.threads import call
from hippograph.kernel.model import Episode
from hippograph.recall.request import RecallResult


class SummaryLine(graphene.ObjectType):
    """One line of a summary: the text of the episode it quotes."""

    text = graphene.String(required=True)
    episode_ids = graphene.NonNull(graphene.List(graphene.NonNull(graphene.ID)))

    @staticmethod
    def resolve_episode_ids(root: service.Line, info: graphene.ResolveInfo) -> Any:
        return list(root.sources)


class SummaryScope(graphene.Enum):
    SESSION = "session"
    PROJECT = "project"


class SummaryCard(graphene.ObjectType):
    """A kept summary shown beside a recall's hits, never among them."""

    scope = graphene.Field(SummaryScope, required=True)
    key = graphene.String(required=True, description="The session's or the project's name.")
    lines = graphene.NonNull(graphene.List(graphene.NonNull(SummaryLine)))


async def resolve_summary_cards(root: RecallResult, info: graphene.ResolveInfo) -> Any:
    """The cards for a recall's question: its filter's projects and sessions, else the session of
    its best-ranked episode. The namespace was checked by the recall itself."""
    request = root.request
    # Most questions are not about a whole: answered here, without a thread to ask the store in.
    if request is None or not service.about_a_whole(request.query):
        return []
    runtime = info.context["runtime"]
    best = next((hit.memory.session for hit in root.hits if isinstance(hit.memory, Episode)), None)
    return await call(
        service.recall_cards,
        runtime.store,
        runtime.clock(),
        request.namespace,
        request.query,
        projects=request.filters.projects or (),
        sessions=request.filters.sessions or (),
        best_session=best,
    )
