"""Authorization and budgets for every root field, over HTTP and WebSocket alike.

Each root resolver is wrapped so that, before it runs, the whole operation is judged once: its
cost and depth against the budgets, at most one write, and every root field against the
principal's role. A refusal fails every root field of the operation, so nothing of it runs.
Namespaces are checked by the resolvers through ``tenant``, before they call a service.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from graphql import GraphQLResolveInfo, GraphQLSchema, OperationType
from hippograph.access import KeyRole, Principal
from hippograph.api.budget import measure, too_costly, too_deep
from hippograph.api.errors import coded
from hippograph.kernel.config import Limits
from hippograph.kernel.errors import ErrorCode, HippographError, bad_input
from hippograph.kernel.validation import validate_namespace

audit = logging.getLogger("hippograph.audit")

DEFAULT_NAMESPACE = "default"
# The context's set of the namespaces an operation's fields worked in.
NAMESPACES_USED = "namespaces_used"

# The least role each mutation needs; a mutation not named here needs admin. Queries and
# subscriptions need a reader.
MUTATION_ROLES: dict[str, KeyRole] = {
    **dict.fromkeys(
        (
            "capture",
            "captureBatch",
            "captureMessages",
            "remember",
            "modify",
            "forget",
            "recover",
            "pin",
            "unpin",
            "addAlias",
            "consolidate",
            "saveSkill",
            "recordSkillOutcome",
            "addBadPattern",
            "createWorkItem",
            "setWorkItemState",
            "assignSession",
            "resolveConflict",
            "promote",
        ),
        KeyRole.WRITER,
    ),
    **dict.fromkeys(("erase", "mergeEntities", "sweep", "resetNamespace"), KeyRole.ADMIN),
}


def needed_role(operation: OperationType, field: str) -> KeyRole:
    if operation is OperationType.MUTATION:
        return MUTATION_ROLES.get(field, KeyRole.ADMIN)
    return KeyRole.READER


def guard_schema(schema: GraphQLSchema, limits: Callable[[Any], Limits]) -> None:
    """Wrap the root fields of ``schema`` in place; ``limits`` reads the budgets off a context."""
    for root in (schema.query_type, schema.mutation_type, schema.subscription_type):
        if root is None:
            continue
        for field in root.fields.values():
            if field.subscribe is not None:
                field.subscribe = _guarded(field.subscribe, limits)
            elif field.resolve is not None:
                field.resolve = _guarded(field.resolve, limits)


def _guarded(resolve: Callable[..., Any], limits: Callable[[Any], Limits]) -> Callable[..., Any]:
    @functools.wraps(resolve)
    def guarded(root: Any, info: GraphQLResolveInfo, **arguments: Any) -> Any:
        try:
            admit(info, limits(info.context))
        except HippographError as error:
            # A subscription's errors are formatted by graphql-core itself: the code goes along.
            raise coded(error) from error
        return resolve(root, info, **arguments)

    return guarded


def admit(info: GraphQLResolveInfo, limits: Limits) -> None:
    """Raise the operation's refusal, judged once per operation and kept in the context."""
    verdicts: dict[int, tuple[Any, HippographError | None]] = info.context.setdefault("verdicts", {})
    kept = verdicts.get(id(info.operation))
    if kept is None or kept[0] is not info.operation:  # a WebSocket's context outlives operations
        kept = (info.operation, _judge(info, limits))
        verdicts[id(info.operation)] = kept
    if kept[1] is not None:
        raise kept[1]


def _judge(info: GraphQLResolveInfo, limits: Limits) -> HippographError | None:
    shape = measure(info.operation, info.fragments, info.variable_values)
    if shape.depth > limits.max_query_depth:
        return too_deep(shape.depth, limits.max_query_depth)
    if shape.cost > limits.max_cost:
        return too_costly(shape.cost, limits.max_cost)
    operation = info.operation.operation
    roots = [name for name in shape.roots if not name.startswith("__")]
    if operation is OperationType.MUTATION and len(roots) > 1:
        return HippographError(
            ErrorCode.LIMIT_EXCEEDED,
            f"a request may hold one write, not {len(roots)}: send them one by one (captureBatch takes many captures)",
            limit=1,
        )
    principal = principal_of(info)
    for field in roots:
        needed = needed_role(operation, field)
        if not principal.role.allows(needed):
            audit.warning("refused %s to key %s: it needs the %s role", field, principal.name, needed.value)
            return HippographError(
                ErrorCode.FORBIDDEN, f"{field} needs the {needed.value} role; this key is a {principal.role.value}"
            )
    return None


def principal_of(info: GraphQLResolveInfo) -> Principal:
    principal: Principal | None = info.context.get("principal")
    if principal is None:  # only a request that skipped authentication could get here
        raise HippographError(ErrorCode.UNAUTHENTICATED, "an API key is required")
    return principal


def actor(info: GraphQLResolveInfo) -> str:
    """Who History records for a change: the key's name, never a string the client sends."""
    return principal_of(info).name


def tenant(info: GraphQLResolveInfo, namespace: str | None) -> str:
    """The namespace a field works in: the one given, or the key's only one, if the key may."""
    principal = principal_of(info)
    if namespace is None:
        if principal.all_namespaces:
            return DEFAULT_NAMESPACE
        if len(principal.namespaces) == 1:
            return next(iter(principal.namespaces))
        raise bad_input("namespace is required: this key may use several", field="namespace")
    validate_namespace(namespace)
    if not principal.may_use(namespace):
        field = info.field_name
        audit.warning("refused %s in namespace %s to key %s", field, namespace, principal.name)
        raise HippographError(ErrorCode.FORBIDDEN, f"this key may not use namespace {namespace!r}", field="namespace")
    # A query in a namespace that holds nothing is told so in the response's extensions (api/app.py).
    info.context.setdefault(NAMESPACES_USED, set()).add(namespace)
    return namespace


def tenant_or_all(info: GraphQLResolveInfo, namespace: str | None) -> str | None:
    """Like ``tenant``, for fields where no namespace means every one: only a key that may use
    every namespace gets that; a key with one gets its own."""
    if namespace is None and principal_of(info).all_namespaces:
        return None
    return tenant(info, namespace)
