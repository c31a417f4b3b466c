"""Promotion's records (docs/memory-management.md, Promotion and demotion): a namespace's policy on
its record, the gates' evidence, the promoted copy with its PROMOTED_TO edge, and the review that
quarantines a copy whose source lost its support. Below the features, so that every write that can
take support away (remember, modify, forget, erase, consolidation) can run the review."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from ulid import ULID

from hippograph.kernel.model import UNKNOWN_AGENT
from hippograph.kernel.priority import Priority
from hippograph.kernel.promotion import Evidence, PromotionPolicy, Record, still_supported
from hippograph.store.history import history_event
from hippograph.store.rows import (
    CREATE_PROMOTED_FACT,
    DEMOTE_COPIES,
    FACT_ATTESTERS,
    PROMOTED_COPIES,
    PROMOTION_POLICY,
    PROMOTION_SOURCE,
    SET_PROMOTION_POLICY,
)
from hippograph.store.search import NAMESPACE_FIELD, namespace_token
from hippograph.store.store import Store, Transaction

__all__ = [
    "PolicyState",
    "create_copy",
    "evidence",
    "policy_in",
    "read_policy",
    "review_quietly",
    "source_fact",
    "write_policy",
]

log = logging.getLogger(__name__)

PROMOTION_ACTOR = "promotion"
# What a copy keeps of its source besides its identity: the statement and what places it in time.
_COPIED = (
    "statement",
    "kind",
    "confidence",
    "importance",
    "content_hash",
    "valid_from",
    "valid_to",
    "valid_precision",
    "key",
    "subject",
    "predicate",
    "object",
    "polarity",
    "negated",
    "tags",
    "category",
    "embedding",
)


@dataclass(frozen=True)
class PolicyState:
    namespace: str
    policy: PromotionPolicy
    promoted: int  # facts of the namespace with a current copy elsewhere


def read_policy(store: Store, namespace: str) -> PolicyState:
    return store.read_in(lambda tx: policy_in(tx, namespace))


def policy_in(tx: Transaction, namespace: str) -> PolicyState:
    [row] = tx.run(PROMOTION_POLICY, namespace=namespace)
    default = PromotionPolicy()

    def given(value: float | None, fallback: float) -> float:
        return float(value) if value is not None else fallback

    policy = PromotionPolicy(
        enabled=bool(row["enabled"]),
        quorum=int(given(row["quorum"], default.quorum)),
        threshold=given(row["threshold"], default.threshold),
        prior_successes=given(row["prior_successes"], default.prior_successes),
        prior_failures=given(row["prior_failures"], default.prior_failures),
    )
    return PolicyState(namespace, policy, int(row["promoted"]))


def write_policy(store: Store, namespace: str, policy: PromotionPolicy, actor: str, now: datetime) -> PolicyState:
    """Store the policy; History records it (target: the namespace) with its values."""

    def write(tx: Transaction) -> None:
        tx.run(
            SET_PROMOTION_POLICY,
            namespace=namespace,
            enabled=policy.enabled,
            quorum=policy.quorum,
            threshold=policy.threshold,
            prior_successes=policy.prior_successes,
            prior_failures=policy.prior_failures,
        )
        metadata = {
            "enabled": policy.enabled,
            "quorum": policy.quorum,
            "threshold": policy.threshold,
            "prior": [policy.prior_successes, policy.prior_failures],
        }
        tx.run(
            "record_history",
            rows=[history_event(namespace, namespace, "promotion_policy", actor, now, metadata=metadata)],
        )

    store.write(write)
    return read_policy(store, namespace)


def evidence(tx: Transaction, namespace: str, fact_id: str, status: str | None) -> Evidence:
    """The gates' evidence on a fact (``status`` None: it is gone). Every other fact of the
    namespace its attesters attest makes their records: current ones successes, quarantined ones
    failures. One read of the namespace's facts, so its cost grows with them."""
    attesters = _attesters(tx, namespace)
    own = attesters.pop(fact_id, (None, frozenset()))[1]
    records: dict[str, Record] = {}
    for name in own:
        held = [fact_status for fact_status, names in attesters.values() if name in names]
        records[name] = Record(held.count("active"), held.count("quarantined"))
    return Evidence(status == "active", sorted(own), records)


def _attesters(tx: Transaction, namespace: str) -> dict[str, tuple[str, frozenset[str]]]:
    found: dict[str, tuple[str, frozenset[str]]] = {}
    for fact in tx.run_listed(FACT_ATTESTERS, namespace=namespace):
        heard = {name for names in fact["heard"] for name in names}
        names = frozenset(name for name in heard | set(fact["told"]) if name and name != UNKNOWN_AGENT)
        found[fact["id"]] = (fact["status"], names)
    return found


def source_fact(tx: Transaction, namespace: str, fact_id: str, target: str) -> tuple[dict[str, Any], str | None] | None:
    """The fact's properties and its current copy in ``target``; None when the namespace has no such fact."""
    rows = tx.run(PROMOTION_SOURCE, namespace=namespace, id=fact_id, target=target)
    if not rows:
        return None
    return dict(rows[0]["fact"]), rows[0]["copy"]


def create_copy(
    tx: Transaction, source: dict[str, Any], target: str, actor: str, now: datetime, metadata: dict[str, Any]
) -> str:
    """A new current fact in ``target`` saying what ``source`` says, linked (source)-[:PROMOTED_TO]->(copy);
    History records the promotion on both."""
    props: dict[str, Any] = {name: source[name] for name in _COPIED if source.get(name) is not None}
    props.update(
        {
            "id": str(ULID()),
            "namespace": target,
            NAMESPACE_FIELD: namespace_token(target),
            "version": 1,
            "status": "active",
            "origin": "promoted",
            "recorded_at": now,
            "pinned": False,
            "access_count": 0,
            "promoted_from": source["id"],
            "promoted_from_namespace": source["namespace"],
        }
    )
    props.setdefault("tags", [])
    tx.writes_graph_of([target])
    tx.run(CREATE_PROMOTED_FACT, source=source["id"], props=props, now=now, actor=actor)
    events = [
        history_event(
            target,
            props["id"],
            "created",
            actor,
            now,
            new_content=props["statement"],
            metadata={**metadata, "promoted_from": source["id"], "source_namespace": source["namespace"]},
        ),
        history_event(
            source["namespace"],
            source["id"],
            "promoted",
            actor,
            now,
            metadata={**metadata, "copy": props["id"], "target": target},
        ),
    ]
    tx.run("record_history", rows=events)
    return str(props["id"])


def review_promotions(store: Store, namespaces: Iterable[str], now: datetime) -> list[str]:
    """Quarantine the copies promoted from these namespaces whose source lost its support (it is
    no longer current, or fewer distinct agents than the policy's quorum attest it), each with a
    ``demoted`` History event on the copy; the ids demoted. A namespace with no current copy
    costs one indexed read."""
    demoted: list[str] = []
    for namespace in sorted(set(namespaces)):
        if read_policy(store, namespace).promoted:
            demoted += store.write(partial(_review, namespace=namespace, now=now), priority=Priority.BACKGROUND)
    return demoted


def review_quietly(store: Store, namespaces: Iterable[str], now: datetime) -> None:
    """``review_promotions`` after a write that already committed: a failure is logged, not raised,
    and the next write in the namespace or consolidation reviews again."""
    try:
        review_promotions(store, namespaces, now)
    except Exception:
        log.exception("reviewing promoted copies failed")


def _review(tx: Transaction, namespace: str, now: datetime) -> list[str]:
    policy = policy_in(tx, namespace).policy
    copies = tx.run_listed(PROMOTED_COPIES, namespace=namespace)
    if not copies:
        return []
    # A source superseded, forgotten or erased is not among them: it holds no longer.
    attesters = _attesters(tx, namespace)
    lost: dict[str, dict[str, Any]] = {}
    for copy in copies:
        status, names = attesters.get(copy["source"], (None, frozenset()))
        verdict = still_supported(policy, Evidence(status == "active", sorted(names), {}))
        if not verdict.passed:
            assert verdict.failed is not None
            lost[copy["copy"]] = {
                "source": copy["source"],
                "source_namespace": namespace,
                "gate": verdict.failed.value,
                "erased": not copy["exists"],
                "reason": verdict.reason,
                "attesters": list(verdict.attesters),
                "target": copy["target"],
            }
    if not lost:
        return []
    [done] = tx.run(DEMOTE_COPIES, ids=sorted(lost), now=now)
    by_target: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for copy_id in done["demoted"]:
        metadata = lost[copy_id]
        by_target[metadata["target"]].append(
            history_event(metadata.pop("target"), copy_id, "demoted", PROMOTION_ACTOR, now, metadata=metadata)
        )
    tx.run("record_history", rows=[event for events in by_target.values() for event in events])
    return list(done["demoted"])
