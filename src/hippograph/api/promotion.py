"""Promotion between namespaces over GraphQL: the types, the query field the schema's Query
inherits and the mutations its Mutation inherits (docs/memory-management.md, Promotion and demotion)."""

from __future__ import annotations

from typing import Any

import graphene

from hippograph.api.guard import actor, tenant
from hippograph.api.inputs import NAMESPACE_HELP
from hippograph.api.threads import call
from hippograph.api.types import Fact
from hippograph.kernel.promotion import MAX_QUORUM
from hippograph.kernel.promotion import Gate as GateValue
from hippograph.lifecycle.promote import PolicyChange, promote, promotion_policy, set_promotion_policy
from hippograph.lifecycle.promote import PromotionStatus as PromotionStatusValue

PromotionGate = graphene.Enum.from_enum(
    GateValue,
    name="PromotionGate",
    description="The promotion gates, judged in this order: the source namespace's policy is on, the fact is "
    "current, a quorum of distinct agents attests it, their reliability's Beta posterior reaches the threshold.",
)
PromotionStatus = graphene.Enum.from_enum(PromotionStatusValue, name="PromotionStatus", description="What promote did.")


class PromotionSettings(graphene.ObjectType):
    enabled = graphene.Boolean(required=True, description="Off by default: no fact of the namespace is promoted.")
    quorum = graphene.Int(required=True, description="Distinct attesting agents a fact needs.")
    threshold = graphene.Float(
        required=True, description="The least posterior mean of the attesters' reliability (above 0, below 1)."
    )
    prior_successes = graphene.Float(required=True, description="a of the Beta(a, b) prior of reliability.")
    prior_failures = graphene.Float(required=True, description="b of the Beta(a, b) prior of reliability.")


class PromotionPolicy(graphene.ObjectType):
    namespace = graphene.String(required=True)
    policy = graphene.Field(graphene.NonNull(PromotionSettings))
    promoted = graphene.Int(required=True, description="Facts of the namespace with a current copy in another.")


class PromotionResult(graphene.ObjectType):
    status = graphene.Field(PromotionStatus, required=True)
    source = graphene.ID(required=True, description="The fact asked for, in namespace.")
    namespace = graphene.String(required=True)
    target = graphene.String(required=True)
    failed_gate = graphene.Field(PromotionGate, description="REFUSED: the first gate that failed.")
    reason = graphene.String(required=True, description="Why, in words: the gate's numbers when one failed.")
    attesters = graphene.NonNull(
        graphene.List(graphene.NonNull(graphene.String)), description="The distinct agents attesting the fact."
    )
    posterior = graphene.Float(description="The posterior mean of their reliability, once the quorum is met.")
    policy = graphene.Field(graphene.NonNull(PromotionSettings), description="The source namespace's policy.")
    copy = graphene.Field(Fact, description="The copy in target: PROMOTED, or ALREADY_PROMOTED.")


class PromotionQuery:
    """Query fields about promotion; the schema's Query inherits them."""

    promotion_policy = graphene.Field(
        graphene.NonNull(PromotionPolicy),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="A namespace's promotion policy, and how many of its facts have a current copy elsewhere.",
    )

    @staticmethod
    async def resolve_promotion_policy(root: Any, info: graphene.ResolveInfo, namespace: str | None = None) -> Any:
        return await call(promotion_policy, info.context["runtime"].store, tenant(info, namespace))


class PromotionMutation:
    """Mutations about promotion; the schema's Mutation inherits them."""

    promote = graphene.Field(
        graphene.NonNull(PromotionResult),
        id=graphene.ID(required=True, description="A fact of namespace."),
        target=graphene.String(
            required=True, description="The namespace to copy it into; the key must be allowed on it."
        ),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="Copy a fact into another namespace when every gate passes (PROMOTED, with a PROMOTED_TO edge "
        "from the fact, which is left as it was); otherwise REFUSED with the gate that failed, and nothing written. "
        "The copy is quarantined (demoted) once the fact is no longer current or its attesters fall below the quorum.",
    )
    set_promotion_policy = graphene.Field(
        graphene.NonNull(PromotionPolicy),
        enabled=graphene.Boolean(required=True),
        quorum=graphene.Int(description=f"1 to {MAX_QUORUM}; omitted: as it was (default 2)."),
        threshold=graphene.Float(description="Above 0, below 1; omitted: as it was (default 0.6)."),
        prior_successes=graphene.Float(description="Above 0; omitted: as it was (default 1)."),
        prior_failures=graphene.Float(description="Above 0; omitted: as it was (default 1)."),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="Set a namespace's promotion policy (admin): whether its facts may be promoted, and the gates' "
        "quorum, threshold and prior. History records it (target: the namespace).",
    )

    @staticmethod
    async def resolve_promote(
        root: Any, info: graphene.ResolveInfo, id: str, target: str, namespace: str | None = None
    ) -> Any:
        source, runtime = tenant(info, namespace), info.context["runtime"]
        return await call(promote, runtime.store, runtime.clock, source, id, tenant(info, target), actor(info))

    @staticmethod
    async def resolve_set_promotion_policy(
        root: Any,
        info: graphene.ResolveInfo,
        enabled: bool,
        namespace: str | None = None,
        quorum: int | None = None,
        threshold: float | None = None,
        prior_successes: float | None = None,
        prior_failures: float | None = None,
    ) -> Any:
        change = PolicyChange(enabled, quorum, threshold, prior_successes, prior_failures)
        runtime = info.context["runtime"]
        return await call(
            set_promotion_policy, runtime.store, runtime.clock, tenant(info, namespace), change, actor(info)
        )
