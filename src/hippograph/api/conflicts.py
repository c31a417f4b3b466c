"""Conflict modes over GraphQL (docs/memory-management.md, Conflict modes): the types, the query
fields the schema's Query inherits and the mutations its Mutation inherits."""

from __future__ import annotations

from typing import Any

import graphene

from hippograph.api.guard import actor, tenant
from hippograph.api.inputs import NAMESPACE_HELP
from hippograph.api.scalars import DateTime
from hippograph.api.threads import call
from hippograph.consolidation import conflicts as service
from hippograph.kernel import model

ConflictKind = graphene.Enum.from_enum(
    model.ConflictKind,
    description="ATTRIBUTE: opposite polarities about one subject (loves sushi, hates sushi); RELATION: a "
    "relation that holds one object at a time given another (LIVES_IN Boston, then Denver).",
)
ConflictMode = graphene.Enum.from_enum(
    model.ConflictMode,
    description="What belief revision does when a statement conflicts with a believed one. STRONGEST (attribute "
    "default): higher confidence, then the later statement, is believed, the other quarantined; TEMPORAL (relation "
    "default): the later statement by the time it says wins, the earlier is superseded; KEEP_EXISTING: the newcomer "
    "is superseded at once; USE_NEW: the believed one is superseded; MERGE: both stay current; ASK: both are "
    "quarantined and a Conflict is listed until resolveConflict. A relation takes TEMPORAL or MERGE.",
)


class ConflictModes(graphene.ObjectType):
    namespace = graphene.String(required=True)
    attribute = graphene.Field(graphene.NonNull(ConflictMode))
    relation = graphene.Field(graphene.NonNull(ConflictMode))


class ConflictSide(graphene.ObjectType):
    id = graphene.ID(required=True)
    statement = graphene.String(required=True)
    status = graphene.String(required=True, description="quarantined while the conflict is open.")
    polarity = graphene.String()
    confidence = graphene.Float(required=True)
    valid_from = DateTime()


class Conflict(graphene.ObjectType):
    """Facts the ASK mode holds quarantined until resolveConflict settles them."""

    id = graphene.ID(required=True)
    namespace = graphene.String(required=True)
    kind = graphene.Field(graphene.NonNull(ConflictKind))
    opened_at = DateTime(required=True)
    facts = graphene.NonNull(graphene.List(graphene.NonNull(ConflictSide)))


class ConflictQuery:
    """Query fields about conflicts; the schema's Query inherits them."""

    conflict_modes = graphene.Field(
        graphene.NonNull(ConflictModes),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="The namespace's conflict mode for each kind of statement.",
    )
    conflicts = graphene.Field(
        graphene.NonNull(graphene.List(graphene.NonNull(Conflict))),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="The namespace's open conflicts (mode ASK), oldest first.",
    )

    @staticmethod
    async def resolve_conflict_modes(root: Any, info: graphene.ResolveInfo, namespace: str | None = None) -> Any:
        return await call(service.conflict_settings, info.context["runtime"].store, tenant(info, namespace))

    @staticmethod
    async def resolve_conflicts(root: Any, info: graphene.ResolveInfo, namespace: str | None = None) -> Any:
        return await call(service.open_conflicts, info.context["runtime"].store, tenant(info, namespace))


class ConflictMutation:
    """Mutations about conflicts; the schema's Mutation inherits them."""

    set_conflict_mode = graphene.Field(
        graphene.NonNull(ConflictModes),
        kind=graphene.Argument(graphene.NonNull(ConflictKind)),
        mode=graphene.Argument(graphene.NonNull(ConflictMode)),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="Set the namespace's conflict mode for one kind of statement (admin); it applies from the next "
        "consolidated statement, and open conflicts stay open. History records it (target: the namespace).",
    )
    resolve_conflict = graphene.Field(
        graphene.NonNull(Conflict),
        id=graphene.ID(required=True),
        keep=graphene.NonNull(graphene.List(graphene.NonNull(graphene.ID))),
        namespace=graphene.String(description=NAMESPACE_HELP),
        reason=graphene.String(),
        description="Settle an open conflict: the facts in keep (one, several or none of it) become active, the "
        "others superseded. Returns the conflict as it was; History records it on the conflict and each fact.",
    )

    @staticmethod
    async def resolve_set_conflict_mode(
        root: Any, info: graphene.ResolveInfo, kind: Any, mode: Any, namespace: str | None = None
    ) -> Any:
        runtime = info.context["runtime"]
        chosen = (model.ConflictKind(kind), model.ConflictMode(mode))
        return await call(
            service.switch_conflict_mode, runtime.store, runtime.clock, tenant(info, namespace), *chosen, actor(info)
        )

    @staticmethod
    async def resolve_resolve_conflict(
        root: Any,
        info: graphene.ResolveInfo,
        id: str,
        keep: list[str],
        namespace: str | None = None,
        reason: str | None = None,
    ) -> Any:
        runtime = info.context["runtime"]
        return await call(
            service.resolve_conflict,
            runtime.store,
            runtime.clock,
            tenant(info, namespace),
            id,
            keep,
            actor(info),
            reason,
        )
