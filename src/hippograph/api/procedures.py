"""Skills, bad patterns and work items over GraphQL: their types, and the query and mutation fields
the schema's roots inherit. Each resolver is one call into hippograph.procedures."""

from __future__ import annotations

from typing import Any

import graphene

from hippograph import procedures as service
from hippograph.api.guard import actor, tenant
from hippograph.api.inputs import NAMESPACE_HELP
from hippograph.api.pagination import offset_connection, offset_window, page_size_argument
from hippograph.api.scalars import DateTime
from hippograph.api.threads import call

WorkState = graphene.Enum.from_enum(service.WorkState, description="Where a work item stands.")


class BadPattern(graphene.ObjectType):
    """What not to do with a skill, recorded against the version it was seen with."""

    id = graphene.ID(required=True)
    skill_id = graphene.ID(required=True, description="The version it was recorded against.")
    description = graphene.String(required=True)
    example = graphene.String(required=True, description="An example of it ('' when none was given).")
    created_at = DateTime(required=True)
    actor = graphene.String(required=True)


class Skill(graphene.ObjectType):
    """One version of a reusable procedure, stored as data and never executed."""

    id = graphene.ID(required=True)
    namespace = graphene.String(required=True)
    name = graphene.String(required=True)
    version = graphene.Int(required=True, description="1 for the first; each save that changes it adds one.")
    description = graphene.String(required=True)
    body = graphene.String(required=True, description="The procedure's text, cleaned as content is.")
    successes = graphene.Int(required=True, description="Uses of this version recorded as successes.")
    failures = graphene.Int(required=True, description="Uses of this version recorded as failures.")
    created_at = DateTime(required=True)
    actor = graphene.String(required=True, description="Who saved this version.")
    last_outcome_at = DateTime()
    bad_patterns = graphene.NonNull(
        graphene.List(graphene.NonNull(BadPattern)),
        description="Bad patterns recorded against any version of this skill, oldest first.",
    )
    versions = graphene.NonNull(
        graphene.List(graphene.NonNull(lambda: Skill)), description="Every version of this skill, newest first."
    )

    @staticmethod
    async def resolve_bad_patterns(root: service.Skill, info: graphene.ResolveInfo) -> Any:
        return await call(service.bad_patterns, info.context["runtime"].store, root.namespace, root.name)

    @staticmethod
    async def resolve_versions(root: service.Skill, info: graphene.ResolveInfo) -> Any:
        return await call(service.skill_versions, info.context["runtime"].store, root.namespace, root.name)


class SkillConnection(graphene.relay.Connection):
    class Meta:
        node = Skill


class WorkItem(graphene.ObjectType):
    """Something to do, with at most one parent; stored as data and never executed."""

    id = graphene.ID(required=True)
    namespace = graphene.String(required=True)
    title = graphene.String(required=True)
    body = graphene.String(required=True)
    state = graphene.NonNull(WorkState)
    parent_id = graphene.ID()
    created_at = DateTime(required=True)
    updated_at = DateTime(required=True)
    actor = graphene.String(required=True, description="Who made it.")
    children = graphene.NonNull(
        graphene.List(graphene.NonNull(lambda: WorkItem)),
        first=page_size_argument(),
        description="Its children, oldest first (the first page).",
    )

    @staticmethod
    async def resolve_children(root: service.WorkItem, info: graphene.ResolveInfo, first: int) -> Any:
        runtime = info.context["runtime"]
        offset_window(first, None, runtime.settings.limits.max_page_size)
        return await call(service.list_work_items, runtime.store, root.namespace, parent_id=root.id, first=first)


class WorkItemConnection(graphene.relay.Connection):
    class Meta:
        node = WorkItem


class ProcedureQuery:
    """Query fields about skills and work items; the schema's Query inherits them."""

    skill = graphene.Field(
        graphene.NonNull(Skill),
        name=graphene.String(required=True),
        version=graphene.Int(description="A version; the newest when omitted."),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="One skill by name; NOT_FOUND if the namespace has none by that name (or version).",
    )
    skills = graphene.Field(
        graphene.NonNull(SkillConnection),
        namespace=graphene.String(description=NAMESPACE_HELP),
        search=graphene.String(description="Only skills whose name, description or body contains this."),
        first=page_size_argument(),
        after=graphene.String(),
        description="The newest version of each skill of a namespace, by name.",
    )
    work_item = graphene.Field(
        graphene.NonNull(WorkItem),
        id=graphene.ID(required=True),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="One work item by id; NOT_FOUND if it is not in the namespace.",
    )
    work_items = graphene.Field(
        graphene.NonNull(WorkItemConnection),
        namespace=graphene.String(description=NAMESPACE_HELP),
        parent_id=graphene.ID(description="Only the children of this item."),
        top_level=graphene.Boolean(default_value=False, description="Only items without a parent."),
        state=WorkState(),
        first=page_size_argument(),
        after=graphene.String(),
        description="A namespace's work items, oldest first.",
    )

    @staticmethod
    async def resolve_skill(
        root: Any, info: graphene.ResolveInfo, name: str, version: int | None = None, namespace: str | None = None
    ) -> Any:
        return await call(service.get_skill, info.context["runtime"].store, tenant(info, namespace), name, version)

    @staticmethod
    async def resolve_skills(
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
        found = await call(service.list_skills, runtime.store, namespace, search=search, skip=skip, first=first + 1)
        return offset_connection(SkillConnection, found, skip, first)

    @staticmethod
    async def resolve_work_item(root: Any, info: graphene.ResolveInfo, id: str, namespace: str | None = None) -> Any:
        return await call(service.get_work_item, info.context["runtime"].store, tenant(info, namespace), id)

    @staticmethod
    async def resolve_work_items(
        root: Any,
        info: graphene.ResolveInfo,
        first: int,
        top_level: bool,
        namespace: str | None = None,
        parent_id: str | None = None,
        state: str | None = None,
        after: str | None = None,
    ) -> Any:
        runtime = info.context["runtime"]
        namespace = tenant(info, namespace)
        skip = offset_window(first, after, runtime.settings.limits.max_page_size)
        found = await call(
            service.list_work_items,
            runtime.store,
            namespace,
            parent_id=parent_id,
            top_level=top_level,
            state=_state(state) if state else None,
            skip=skip,
            first=first + 1,
        )
        return offset_connection(WorkItemConnection, found, skip, first)


class ProcedureMutation:
    """Mutation fields for skills and work items; the schema's Mutation inherits them."""

    save_skill = graphene.Field(
        graphene.NonNull(Skill),
        name=graphene.String(required=True),
        body=graphene.String(required=True),
        namespace=graphene.String(description=NAMESPACE_HELP),
        args={"description": graphene.String()},
        description="Save a skill: a new version when its body or description changed, else the newest as it is.",
    )
    record_skill_outcome = graphene.Field(
        graphene.NonNull(Skill),
        id=graphene.ID(required=True, description="The version that was used."),
        success=graphene.Boolean(required=True),
        note=graphene.String(description="Why, for History."),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="Count one use of a skill's version as a success or a failure.",
    )
    add_bad_pattern = graphene.Field(
        graphene.NonNull(BadPattern),
        skill_id=graphene.ID(required=True, description="The version it was seen with."),
        example=graphene.String(),
        namespace=graphene.String(description=NAMESPACE_HELP),
        args={"description": graphene.String(required=True)},
        description="Record what not to do with a skill.",
    )
    create_work_item = graphene.Field(
        graphene.NonNull(WorkItem),
        title=graphene.String(required=True),
        body=graphene.String(),
        parent_id=graphene.ID(description="Its parent, in the same namespace; it never changes."),
        state=WorkState(),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="Make a work item.",
    )
    set_work_item_state = graphene.Field(
        graphene.NonNull(WorkItem),
        id=graphene.ID(required=True),
        state=graphene.Argument(graphene.NonNull(WorkState)),
        reason=graphene.String(),
        namespace=graphene.String(description=NAMESPACE_HELP),
        description="Move a work item to another state (History keeps the reason).",
    )

    @staticmethod
    async def resolve_save_skill(
        root: Any,
        info: graphene.ResolveInfo,
        name: str,
        body: str,
        description: str | None = None,
        namespace: str | None = None,
    ) -> Any:
        runtime = info.context["runtime"]
        return await call(
            service.save_skill,
            runtime.store,
            runtime.clock(),
            runtime.settings.limits,
            tenant(info, namespace),
            name,
            body,
            actor(info),
            description=description,
        )

    @staticmethod
    async def resolve_record_skill_outcome(
        root: Any,
        info: graphene.ResolveInfo,
        id: str,
        success: bool,
        note: str | None = None,
        namespace: str | None = None,
    ) -> Any:
        runtime = info.context["runtime"]
        namespace = tenant(info, namespace)
        return await call(
            service.record_outcome, runtime.store, runtime.clock(), namespace, id, success, actor(info), note
        )

    @staticmethod
    async def resolve_add_bad_pattern(
        root: Any,
        info: graphene.ResolveInfo,
        skill_id: str,
        description: str,
        example: str | None = None,
        namespace: str | None = None,
    ) -> Any:
        runtime = info.context["runtime"]
        return await call(
            service.add_bad_pattern,
            runtime.store,
            runtime.clock(),
            runtime.settings.limits,
            tenant(info, namespace),
            skill_id,
            description,
            actor(info),
            example=example,
        )

    @staticmethod
    async def resolve_create_work_item(
        root: Any,
        info: graphene.ResolveInfo,
        title: str,
        body: str | None = None,
        parent_id: str | None = None,
        state: str | None = None,
        namespace: str | None = None,
    ) -> Any:
        runtime = info.context["runtime"]
        return await call(
            service.create_work_item,
            runtime.store,
            runtime.clock(),
            runtime.settings.limits,
            tenant(info, namespace),
            title,
            actor(info),
            body=body,
            parent_id=parent_id,
            state=_state(state) if state else service.WorkState.OPEN,
        )

    @staticmethod
    async def resolve_set_work_item_state(
        root: Any,
        info: graphene.ResolveInfo,
        id: str,
        state: str,
        reason: str | None = None,
        namespace: str | None = None,
    ) -> Any:
        runtime = info.context["runtime"]
        namespace = tenant(info, namespace)
        return await call(
            service.set_work_item_state,
            runtime.store,
            runtime.clock(),
            namespace,
            id,
            _state(state),
            actor(info),
            reason,
        )


def _state(member: Any) -> service.WorkState:
    """graphene hands an enum argument over as a member of its own enum."""
    return service.WorkState(getattr(member, "value", member))
