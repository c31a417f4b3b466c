"""The GraphQL mutation root: each resolver one call into the service layer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import graphene

from hippograph.api import types
from hippograph.api.conflicts import ConflictMutation
from hippograph.api.guard import actor, tenant, tenant_or_all
from hippograph.api.inputs import (
    NAMESPACE_HELP,
    CaptureInput,
    ForgetInput,
    MessageInput,
    ModifyInput,
    RememberInput,
    to_capture,
    to_forget,
    to_messages,
    to_modify,
    to_remember,
)
from hippograph.api.procedures import ProcedureMutation
from hippograph.api.promotion import PromotionMutation
from hippograph.api.summaries import SummaryMutation
from hippograph.api.threads import call
from hippograph.capture.messages import message_captures
from hippograph.capture.service import capture
from hippograph.consolidation.blocking import switch_blocking
from hippograph.consolidation.shadow import switch_shadow_mode
from hippograph.consolidation.worker import consolidate
from hippograph.graph.curation import add_alias, merge_entities
from hippograph.kernel.config import LifecycleSettings, Limits
from hippograph.kernel.errors import bad_input
from hippograph.kernel.model import CaptureInput as CaptureItem
from hippograph.kernel.model import CaptureOutcome
from hippograph.lifecycle.erase import erase
from hippograph.lifecycle.forget import ForgetMode, forget, recover
from hippograph.lifecycle.modify import modify
from hippograph.lifecycle.pin import set_pinned
from hippograph.lifecycle.remember import remember
from hippograph.lifecycle.reset import reset_namespace
from hippograph.lifecycle.sweep import sweep

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


async def _capture(
    info: graphene.ResolveInfo, items: Sequence[CaptureItem], *, refuse_items: bool = False
) -> list[CaptureOutcome]:
    runtime = info.context["runtime"]
    settings = runtime.settings
    parts = (runtime.store, runtime.embedder, runtime.clock, settings.limits, settings.dedup)
    turns = settings.consolidation.context_turns
    return await call(capture, *parts, turns, items, actor(info), refuse_items=refuse_items)


class Mutation(ConflictMutation, ProcedureMutation, PromotionMutation, SummaryMutation, graphene.ObjectType):
    capture = graphene.Field(
        graphene.NonNull(types.CaptureResult),
        input=graphene.Argument(graphene.NonNull(CaptureInput)),
        description="Store one episode (or recognise it as a duplicate or a corroboration).",
    )
    capture_batch = graphene.Field(
        graphene.NonNull(graphene.List(graphene.NonNull(types.CaptureResult))),
        inputs=graphene.Argument(graphene.NonNull(graphene.List(graphene.NonNull(CaptureInput)))),
        description=f"Store up to {Limits().max_batch} episodes (by default) in one transaction. An item bad in "
        "itself (nothing left once injections are excised, too long, the system role) is REFUSED with its error "
        "and the others are stored; a batch too large, or one naming a namespace the key may not use, is refused whole.",
    )
    capture_messages = graphene.Field(
        graphene.NonNull(graphene.List(graphene.NonNull(types.CaptureResult))),
        messages=graphene.Argument(graphene.NonNull(graphene.List(graphene.NonNull(MessageInput)))),
        session=graphene.String(description="The conversation; its episodes are chained in order."),
        agent=graphene.String(description="The assistant's name: the speaker of assistant messages without one."),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="Store a conversation as chat APIs hold it, one episode per message in order, "
        "with its speaker and time; like captureBatch, all or none.",
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
    reset_namespace = graphene.Field(
        graphene.NonNull(types.ResetNamespaceResult),
        namespace=graphene.String(required=True),
        mode=graphene.Argument(types.ForgetMode, default_value=ForgetMode.PREVIEW.value),
        reason=graphene.String(description="Required to EXECUTE; History keeps it."),
        token=graphene.String(description="The PREVIEW's token; always required to EXECUTE."),
        description="Irreversibly delete everything a namespace holds (admin): PREVIEW, then EXECUTE with "
        "a reason and the preview's token. One History node (target: the namespace) records it.",
    )
    set_shadow_mode = graphene.Field(
        graphene.NonNull(types.ShadowMode),
        enabled=graphene.Boolean(required=True),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="Turn a namespace's shadow mode on or off (admin). On, consolidation records its proposals in "
        "History (actor consolidation-shadow) and changes no derived memory; off, the parked episodes are "
        "consolidated for real.",
    )
    set_block_destructive = graphene.Field(
        graphene.NonNull(types.DestructiveBlocking),
        enabled=graphene.Boolean(required=True),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="Block or allow destructive consolidation proposals in a namespace (admin). On, consolidation "
        "supersedes no fact, closes no relation and merges no entity: History records each such proposal "
        "(event consolidation_blocked, target the namespace) and the rest is derived. Off, nothing blocked is "
        "applied; later statements are revised as usual.",
    )
    recover = _memory_change(
        "Bring back a forgotten memory within the retention window "
        f"(default {LifecycleSettings().recover_window_days:g} days)."
    )

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
        runtime = info.context["runtime"]
        return await call(
            set_pinned, runtime.store, runtime.clock, tenant(info, namespace), id, True, actor(info), reason
        )

    @staticmethod
    async def resolve_unpin(
        root: Any, info: graphene.ResolveInfo, id: str, namespace: str | None = None, reason: str | None = None
    ) -> Any:
        runtime = info.context["runtime"]
        return await call(
            set_pinned, runtime.store, runtime.clock, tenant(info, namespace), id, False, actor(info), reason
        )

    @staticmethod
    async def resolve_sweep(root: Any, info: graphene.ResolveInfo, namespace: str | None = None) -> Any:
        runtime = info.context["runtime"]
        settings = runtime.settings
        where = tenant_or_all(info, namespace)
        return await call(
            sweep, runtime.store, runtime.clock, settings.lifecycle, settings.access, where, runtime.access
        )

    @staticmethod
    async def resolve_forget(root: Any, info: graphene.ResolveInfo, input: dict[str, Any]) -> Any:
        request = to_forget(input, tenant(info, input.get("namespace")), actor(info))
        runtime = info.context["runtime"]
        settings = runtime.settings
        return await call(forget, runtime.store, runtime.clock, settings.lifecycle, settings.limits, request)

    @staticmethod
    async def resolve_reset_namespace(
        root: Any,
        info: graphene.ResolveInfo,
        namespace: str,
        mode: Any = ForgetMode.PREVIEW,
        reason: str | None = None,
        token: str | None = None,
    ) -> Any:
        chosen = ForgetMode(getattr(mode, "value", mode))
        runtime = info.context["runtime"]
        store, clock, lifecycle = runtime.store, runtime.clock, runtime.settings.lifecycle
        space = tenant(info, namespace)
        return await call(reset_namespace, store, clock, lifecycle, space, chosen, actor(info), reason, token)

    @staticmethod
    async def resolve_set_block_destructive(
        root: Any, info: graphene.ResolveInfo, enabled: bool, namespace: str | None = None
    ) -> Any:
        runtime = info.context["runtime"]
        return await call(switch_blocking, runtime.store, runtime.clock, tenant(info, namespace), enabled, actor(info))

    @staticmethod
    async def resolve_set_shadow_mode(
        root: Any, info: graphene.ResolveInfo, enabled: bool, namespace: str | None = None
    ) -> Any:
        runtime = info.context["runtime"]
        return await call(
            switch_shadow_mode, runtime.store, runtime.clock, tenant(info, namespace), enabled, actor(info)
        )

    @staticmethod
    async def resolve_recover(
        root: Any, info: graphene.ResolveInfo, id: str, namespace: str | None = None, reason: str | None = None
    ) -> Any:
        runtime = info.context["runtime"]
        store, clock, lifecycle = runtime.store, runtime.clock, runtime.settings.lifecycle
        return await call(recover, store, clock, lifecycle, tenant(info, namespace), id, reason, actor(info))

    @staticmethod
    async def resolve_erase(
        root: Any, info: graphene.ResolveInfo, id: str, reason: str, namespace: str | None = None
    ) -> Any:
        runtime = info.context["runtime"]
        return await call(erase, runtime.store, runtime.clock, tenant(info, namespace), id, reason, actor(info))

    @staticmethod
    async def resolve_modify(root: Any, info: graphene.ResolveInfo, input: dict[str, Any]) -> Any:
        request = to_modify(input, tenant(info, input.get("namespace")), actor(info))
        runtime = info.context["runtime"]
        return await call(modify, runtime.store, runtime.embedder, runtime.clock, runtime.settings.limits, request)

    @staticmethod
    async def resolve_remember(root: Any, info: graphene.ResolveInfo, input: dict[str, Any]) -> Any:
        request = to_remember(input, tenant(info, input.get("namespace")), actor(info))
        runtime = info.context["runtime"]
        settings = runtime.settings
        return await call(
            remember, runtime.store, runtime.embedder, runtime.clock, settings.limits, settings.dedup, request
        )

    @staticmethod
    async def resolve_add_alias(
        root: Any, info: graphene.ResolveInfo, entity_id: str, alias: str, namespace: str | None = None
    ) -> Any:
        runtime = info.context["runtime"]
        return await call(
            add_alias, runtime.store, runtime.clock, tenant(info, namespace), entity_id, alias, actor(info)
        )

    @staticmethod
    async def resolve_merge_entities(
        root: Any,
        info: graphene.ResolveInfo,
        source_id: str,
        target_id: str,
        reason: str,
        namespace: str | None = None,
    ) -> Any:
        runtime = info.context["runtime"]
        return await call(
            merge_entities,
            runtime.store,
            runtime.clock,
            tenant(info, namespace),
            source_id,
            target_id,
            reason,
            actor(info),
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
        outcomes = await _capture(info, [item])
        return outcomes[0]

    @staticmethod
    async def resolve_capture_batch(
        root: Any, info: graphene.ResolveInfo, inputs: list[dict[str, Any]]
    ) -> list[CaptureOutcome]:
        # Every input's namespace is checked before any is written: a foreign one refuses the whole
        # batch. An item that is bad in itself is REFUSED alone, and the others are stored.
        items = [to_capture(item, tenant(info, item.get("namespace"))) for item in inputs]
        return await _capture(info, items, refuse_items=True)

    @staticmethod
    async def resolve_capture_messages(
        root: Any,
        info: graphene.ResolveInfo,
        messages: list[dict[str, Any]],
        session: str | None = None,
        agent: str | None = None,
        namespace: str | None = None,
    ) -> list[CaptureOutcome]:
        items = message_captures(to_messages(messages), tenant(info, namespace), session, agent)
        return await _capture(info, items)
