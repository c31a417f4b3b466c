"""Which current facts a remembered fact replaces, decided on plain data by its kind's policy
(store/supersession.py). test_remember.py applies it through the API; test_belief_revision.py and
test_conflict_modes.py apply consolidation's verdicts through the same ``supersede``."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from hippograph.kernel.retention import POLICIES, Supersession
from hippograph.store.rows import CurrentFactRow
from hippograph.store.supersession import Identity, Replacement, replaced, unkeyed

AT = datetime(2024, 5, 1, tzinfo=UTC)


def row(fact: str, kind: str = "fact", key: str | None = "k1", subject: str | None = "x") -> CurrentFactRow:
    return {"id": fact, "kind": kind, "key": key, "subject": subject, "status": "active"}


def kinds(rule: Supersession) -> list[str]:
    return [kind for kind, policy in POLICIES.items() if policy.supersedes_by is rule and kind != "episode"]


@pytest.mark.parametrize("kind", kinds(Supersession.KEY))
def test_a_kind_by_key_replaces_the_current_facts_of_its_kind_with_its_key(kind: str) -> None:
    current = [
        row("same", kind),
        row("other-key", kind, key="k2"),
        row("other-kind", "event" if kind != "event" else "fact"),
    ]
    assert replaced(Identity(kind, "k1", "y"), "new", AT, current) == (Replacement("new", "same", AT),)


@pytest.mark.parametrize("kind", kinds(Supersession.KEY))
def test_a_kind_by_key_without_a_key_replaces_nothing_and_says_so(kind: str) -> None:
    identity = Identity(kind, None, "x")
    assert unkeyed(identity)
    assert replaced(identity, "new", AT, [row("keyless", kind, key=None)]) == ()


def test_a_status_replaces_the_current_status_of_its_subject_whatever_its_key() -> None:
    current = [row("old", "status", key="a"), row("other", "status", subject="y"), row("also", "status", key=None)]
    identity = Identity("status", "b", "x")
    assert not unkeyed(identity)
    assert replaced(identity, "new", AT, current) == (Replacement("new", "old", AT), Replacement("new", "also", AT))


@pytest.mark.parametrize("kind", kinds(Supersession.NEVER))
def test_a_kind_that_never_supersedes_replaces_nothing(kind: str) -> None:
    assert replaced(Identity(kind, "k1", "x"), "new", AT, [row("same", kind)]) == ()
    assert not unkeyed(Identity(kind, None, None))


def test_only_a_current_fact_other_than_the_new_one_is_replaced() -> None:
    superseded: CurrentFactRow = {**row("gone"), "status": "superseded"}
    assert replaced(Identity("fact", "k1", None), "new", AT, [superseded, row("new"), row("old")]) == (
        Replacement("new", "old", AT),
    )
