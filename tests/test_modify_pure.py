"""What a modify changes, decided on plain data (lifecycle/modify.py): the changes a request asks
for, checked and cleaned like a capture; which versions may change; the properties of the new
version. No store: test_modify.py modifies facts over the API."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hippograph.kernel.config import Limits
from hippograph.kernel.errors import ErrorCode, HippographError
from hippograph.lifecycle.modify import ModifyInput, changes_of, check_current, new_version

NOW = datetime(2026, 11, 28, 12, tzinfo=UTC)
EARLIER = datetime(2026, 11, 1, tzinfo=UTC)
LIMITS = Limits(max_content_bytes=64)
CURRENT: dict[str, Any] = {
    "id": "f1",
    "statement": "The office opens at 9.",
    "kind": "procedure",
    "version": 2,
    "status": "active",
    "recorded_at": EARLIER,
    "expired_at": None,
    "importance": 0.5,
    "tags": ["office"],
    "redactions": ["email"],
    "embedding": [0.1, 0.2],
    "content_hash": "old",
}


def change(**fields: Any) -> ModifyInput:
    return ModifyInput(**{"id": "f1", "reason": "corrected", **fields})


def test_a_statement_and_tags_are_cleaned_like_a_capture_and_their_redactions_counted() -> None:
    updates, redacted = changes_of(
        LIMITS,
        change(statement="The password=hunter2secret rotates.", tags=("ops", "token=ghp_" + "a" * 36), importance=0.9),
    )
    assert updates == {
        "statement": "The password=[REDACTED:password_assignment] rotates.",
        "importance": 0.9,
        "tags": ["ops", "token=[REDACTED:github_token]"],
    }
    assert redacted == Counter({"password_assignment": 1, "github_token": 1})
    assert changes_of(LIMITS, change(confidence=0.4)) == ({"confidence": 0.4}, Counter())


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({}, "input"),
        ({"statement": "   "}, "statement"),
        ({"statement": "x" * 65}, "statement"),
        ({"importance": 1.5}, "importance"),
        ({"confidence": -0.1}, "confidence"),
    ],
)
def test_a_change_of_nothing_or_out_of_bounds_is_refused(fields: dict[str, Any], field: str) -> None:
    with pytest.raises(HippographError) as caught:
        changes_of(LIMITS, change(**fields))
    assert caught.value.code is ErrorCode.BAD_INPUT and caught.value.details["field"] == field


def refusal(current: dict[str, Any], **fields: Any) -> HippographError:
    with pytest.raises(HippographError) as caught:
        check_current(change(**fields), current)
    return caught.value


def test_only_the_current_unforgotten_version_the_caller_read_may_change() -> None:
    check_current(change(), CURRENT)
    check_current(change(if_version=2), CURRENT)
    stale = refusal(CURRENT, if_version=1)
    assert (stale.code, stale.details["field"], stale.details["current_version"]) == (
        ErrorCode.VERSION_CONFLICT,
        "ifVersion",
        2,
    )
    superseded = refusal({**CURRENT, "status": "superseded"})
    assert (superseded.code, superseded.details["field"]) == (ErrorCode.VERSION_CONFLICT, "id")
    forgotten = refusal({**CURRENT, "forgotten_at": EARLIER}, if_version=2)
    assert forgotten.code is ErrorCode.BAD_INPUT and "recover it first" in str(forgotten)


def test_a_new_statement_replaces_the_embedding_and_the_redaction_marks() -> None:
    updates = {"statement": "The office opens at 7.", "content_hash": "new", "embedding": [0.3, 0.4]}
    props = new_version(CURRENT, updates, Counter({"password_assignment": 1}), "f2", NOW)
    assert {key: props[key] for key in ("id", "version", "status", "recorded_at", "statement", "embedding")} == {
        "id": "f2",
        "version": 3,
        "status": "active",
        "recorded_at": NOW,
        "statement": "The office opens at 7.",
        "embedding": [0.3, 0.4],
    }
    assert props["redactions"] == ["password_assignment"] and "expired_at" not in props
    # An embedding that failed leaves the new statement without one, never with the old one's.
    failed = new_version(CURRENT, {**updates, "embedding": None}, Counter(), "f2", NOW)
    assert "embedding" not in failed and failed["redactions"] == []


values = st.one_of(st.none(), st.floats(0, 1), st.lists(st.text(max_size=5), max_size=3))


@settings(deadline=None)
@given(st.dictionaries(st.sampled_from(["importance", "confidence", "tags"]), values))
def test_a_version_without_a_new_statement_keeps_all_else_of_the_old(updates: dict[str, Any]) -> None:
    redacted = Counter({"github_token": 1}) if "tags" in updates else Counter()
    props = new_version(CURRENT, updates, redacted, "f2", NOW)
    for key, value in CURRENT.items():
        if key in ("id", "version", "recorded_at", "expired_at", "redactions"):
            continue
        assert props[key] == (updates[key] if updates.get(key) is not None else value)
    assert props["version"] == CURRENT["version"] + 1 and "expired_at" not in props
    assert props["redactions"] == ["email", *redacted]
