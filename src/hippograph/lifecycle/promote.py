"""Promotion between namespaces (docs/memory-management.md, Promotion and demotion): a current fact
attested by a quorum of reliable agents is copied into another namespace on request, when its
namespace's policy allows; the copy is demoted (quarantined) once its source loses that support."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum

from hippograph.kernel.errors import ErrorCode, HippographError, bad_input
from hippograph.kernel.events import EventKind, MemoryEvent
from hippograph.kernel.model import Fact
from hippograph.kernel.promotion import Gate, PromotionPolicy, Verdict, judge
from hippograph.kernel.validation import validate_namespace
from hippograph.store import Store, Transaction
from hippograph.store.changes import with_changes
from hippograph.store.memories import hydrate
from hippograph.store.promotions import (
    PolicyState,
    create_copy,
    evidence,
    policy_in,
    read_policy,
    source_fact,
    write_policy,
)

__all__ = ["PolicyChange", "PromotionOutcome", "PromotionStatus", "promote", "promotion_policy", "set_promotion_policy"]


class PromotionStatus(StrEnum):
    PROMOTED = "PROMOTED"
    ALREADY_PROMOTED = "ALREADY_PROMOTED"  # a current copy in the target exists: nothing was written
    REFUSED = "REFUSED"  # a gate failed: nothing was written


@dataclass(frozen=True)
class PromotionOutcome:
    status: PromotionStatus
    source: str
    namespace: str
    target: str
    failed_gate: Gate | None
    reason: str
    attesters: tuple[str, ...]
    posterior: float | None
    policy: PromotionPolicy
    copy: Fact | None


@dataclass(frozen=True)
class PolicyChange:
    """What setPromotionPolicy changes: None keeps the namespace's current value."""

    enabled: bool
    quorum: int | None = None
    threshold: float | None = None
    prior_successes: float | None = None
    prior_failures: float | None = None


@dataclass(frozen=True)
class _Done:
    verdict: Verdict
    copy: str | None
    status: PromotionStatus
    policy: PromotionPolicy


def promotion_policy(store: Store, namespace: str) -> PolicyState:
    validate_namespace(namespace)
    return read_policy(store, namespace)


def set_promotion_policy(
    store: Store, clock: Callable[[], datetime], namespace: str, change: PolicyChange, actor: str
) -> PolicyState:
    validate_namespace(namespace)
    current = read_policy(store, namespace).policy
    policy = replace(
        current,
        enabled=change.enabled,
        **{
            name: value
            for name in ("quorum", "threshold", "prior_successes", "prior_failures")
            if (value := getattr(change, name)) is not None
        },
    )
    policy.validate()
    return write_policy(store, namespace, policy, actor, clock())


def promote(
    store: Store, clock: Callable[[], datetime], namespace: str, fact_id: str, target: str, actor: str
) -> PromotionOutcome:
    """Judge the gates on the fact in one write transaction and, when all pass, copy it into
    ``target``. The caller has checked that the key may use both namespaces."""
    validate_namespace(namespace)
    validate_namespace(target)
    if target == namespace:
        raise bad_input("the target namespace must differ from the fact's own", field="target")
    now = clock()

    def write(tx: Transaction) -> _Done:
        policy = policy_in(tx, namespace).policy
        found = source_fact(tx, namespace, fact_id, target)
        if found is None:
            raise HippographError(ErrorCode.NOT_FOUND, f"no fact {fact_id!r} in namespace {namespace!r}", field="id")
        fact, copy = found
        seen = evidence(tx, namespace, fact_id, None if fact.get("forgotten_at") else fact["status"])
        verdict = judge(policy, seen)
        if copy is not None:
            return _Done(verdict, copy, PromotionStatus.ALREADY_PROMOTED, policy)
        if not verdict.passed:
            return _Done(verdict, None, PromotionStatus.REFUSED, policy)
        metadata = {"attesters": list(verdict.attesters), "posterior": verdict.posterior, "quorum": policy.quorum}
        return _Done(verdict, create_copy(tx, fact, target, actor, now, metadata), PromotionStatus.PROMOTED, policy)

    def events(done: _Done) -> list[MemoryEvent]:
        if done.status is not PromotionStatus.PROMOTED or done.copy is None:
            return []
        return [MemoryEvent(EventKind.CREATED, target, done.copy, now, actor, related=(fact_id,))]

    done = store.write(with_changes(write, events))
    copy = hydrate(store, target, [done.copy]).get(done.copy) if done.copy is not None else None
    assert copy is None or isinstance(copy, Fact)
    return PromotionOutcome(
        done.status,
        fact_id,
        namespace,
        target,
        done.verdict.failed if done.status is PromotionStatus.REFUSED else None,
        "a current copy is already in the target namespace"
        if done.status is PromotionStatus.ALREADY_PROMOTED
        else done.verdict.reason,
        done.verdict.attesters,
        done.verdict.posterior,
        done.policy,
        copy,
    )
