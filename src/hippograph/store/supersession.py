"""Fact supersession, for `remember` (lifecycle/remember.py) and belief revision (consolidation/
revise.py, conflicts.py) alike: a newer fact replaces an older one. Nothing is deleted: the older
fact becomes superseded, a SUPERSEDES link goes from the newer to it and, where the newer one says
when, the older one's valid time ends there.

Who replaces whom is decided on plain data: for an explicit fact by its kind's policy
(``replaced``, over the current facts ``current_facts`` reads), in consolidation by the verdicts of
settle.py and timeline.py. ``supersede`` applies any such decision in one statement.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from hippograph.kernel.retention import POLICIES, Supersession
from hippograph.store.rows import CURRENT_FACTS_BY_KEY, CURRENT_FACTS_BY_SUBJECT, CurrentFactRow
from hippograph.store.store import Transaction

__all__ = ["Identity", "Replacement", "Runs", "current_facts", "replaced", "supersede", "unkeyed"]


class Runs(Protocol):
    """Where ``supersede`` runs: a store transaction, or consolidation's commit context."""

    def run(self, name: str, /, *, replacements: list[dict[str, Any]]) -> object: ...


@dataclass(frozen=True)
class Replacement:
    newer: str
    older: str
    valid_to: datetime | None = None  # when the older one stopped holding; None: as it was


@dataclass(frozen=True)
class Identity:
    """What a kind's policy compares a new fact by."""

    kind: str
    key: str | None
    subject: str | None

    @property
    def rule(self) -> Supersession:
        return POLICIES[self.kind].supersedes_by


def unkeyed(identity: Identity) -> bool:
    """A fact of a kind that supersedes by key, without one: nothing will ever supersede it."""
    return identity.rule is Supersession.KEY and identity.key is None


def replaced(
    identity: Identity, newer: str, valid_from: datetime, current: Sequence[CurrentFactRow]
) -> tuple[Replacement, ...]:
    """The current facts a new fact ``newer`` replaces by its kind's policy: those of its kind with
    its key (a kind that supersedes by key; a fact without one replaces none) or with its subject
    (by subject). Each stops holding where the new one starts to."""
    rule = identity.rule
    if rule is Supersession.KEY and identity.key is not None:
        same = [row for row in current if row["key"] == identity.key]
    elif rule is Supersession.SUBJECT:
        same = [row for row in current if row["subject"] == identity.subject]
    else:
        return ()
    return tuple(
        Replacement(newer, row["id"], valid_from)
        for row in same
        if row["kind"] == identity.kind and row["status"] == "active" and row["id"] != newer
    )


def current_facts(tx: Transaction, namespace: str, identity: Identity) -> list[CurrentFactRow]:
    """The namespace's current facts that a new fact of ``identity`` may replace (``replaced``)."""
    if identity.rule is Supersession.KEY and identity.key is not None:
        return tx.run(CURRENT_FACTS_BY_KEY, namespace=namespace, kind=identity.kind, key=identity.key)
    if identity.rule is Supersession.SUBJECT:
        return tx.run(CURRENT_FACTS_BY_SUBJECT, namespace=namespace, kind=identity.kind, subject=identity.subject)
    return []


def supersede(tx: Runs, replacements: Iterable[Replacement]) -> None:
    rows = [{"newer": r.newer, "older": r.older, "valid_to": r.valid_to} for r in replacements]
    if rows:
        tx.run("supersede_facts", replacements=rows)
