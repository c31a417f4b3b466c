"""What remember decides on plain data (lifecycle/remember.py): the statement and its names
checked, cleaned and scrubbed alike; which current fact a statement repeats, and how it was
recognised; which close fact a new one extends; what its History and warnings say. No store:
test_remember.py and test_near_duplicates.py remember facts end to end."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hippograph.kernel.config import Limits
from hippograph.kernel.errors import ErrorCode, HippographError
from hippograph.kernel.model import DuplicateMatch, Redaction
from hippograph.kernel.text.near import NearMatch
from hippograph.kernel.text.novelty import Overlap
from hippograph.lifecycle.remember import (
    RememberInput,
    created_metadata,
    duplicate_warning,
    extended,
    prepare,
    repeats,
)
from hippograph.store.supersession import Identity

NOW = datetime(2026, 11, 28, 12, tzinfo=UTC)
LIMITS = Limits()


def close(overlap: Overlap, fact_id: str = "f-close") -> NearMatch:
    return NearMatch(overlap, fact_id, 0.97, ("caroline",))


def test_names_are_trimmed_and_scrubbed_of_what_the_statement_had_redacted() -> None:
    item = RememberInput(
        "The staging password=hunter2secret is rotated monthly.",
        kind="procedure",
        key="  staging   password=hunter2secret ",
        tags=("password=hunter2secret", "ops"),
    )
    statement = prepare(LIMITS, item, NOW)
    assert statement.text == "The staging password=[REDACTED:password_assignment] is rotated monthly."
    assert statement.names == {
        "key": "staging password=[REDACTED:password_assignment]",
        "subject": None,
        "predicate": None,
        "object": None,
    }
    assert statement.identity == Identity("procedure", statement.names["key"], None)
    assert "hunter2secret" not in " ".join(statement.tags)
    assert statement.redactions == (Redaction("password_assignment", 3),)
    assert statement.warnings == ()


def test_the_same_statement_written_differently_hashes_alike_and_an_unkeyed_fact_is_warned_of() -> None:
    first = prepare(LIMITS, RememberInput("Dana's editor is Helix.", key="dana.editor"), NOW)
    again = prepare(LIMITS, RememberInput("dana's editor is helix", key="dana.editor"), NOW)
    other_kind = prepare(LIMITS, RememberInput("Dana's editor is Helix.", kind="preference", key="dana.editor"), NOW)
    assert first.digest == again.digest != other_kind.digest
    unkeyed = prepare(LIMITS, RememberInput("Dana likes tea.", kind="preference"), NOW)
    assert unkeyed.warnings == ("this preference has no key, so it can never be superseded by a later fact",)
    # A kind that never supersedes, or supersedes by subject, needs no key.
    assert prepare(LIMITS, RememberInput("We chose Postgres.", kind="decision"), NOW).warnings == ()
    assert prepare(LIMITS, RememberInput("It is red.", kind="status", subject="build"), NOW).warnings == ()


@pytest.mark.parametrize(
    ("item", "field"),
    [
        (RememberInput("x", kind="gossip"), "kind"),
        (RememberInput("The build is red.", kind="status"), "subject"),
        (RememberInput("x", key="k" * 1000), "key"),
        (RememberInput("x", confidence=1.5), "confidence"),
        (RememberInput("x", valid_from=NOW + timedelta(days=3650)), "validFrom"),
        (RememberInput("x", valid_from=datetime(2026, 1, 1)), "validFrom"),  # no time zone
        (RememberInput("  "), "statement"),
        (RememberInput("x" * (LIMITS.max_content_bytes + 1)), "statement"),
    ],
)
def test_a_statement_or_name_out_of_bounds_is_refused_naming_its_field(item: RememberInput, field: str) -> None:
    with pytest.raises(HippographError) as caught:
        prepare(LIMITS, item, NOW)
    assert caught.value.code is ErrorCode.BAD_INPUT and caught.value.details["field"] == field


def test_an_identical_fact_is_recognised_before_a_close_one_and_only_a_close_one_that_adds_nothing() -> None:
    assert repeats(["f-same", "f-other"], close(Overlap.DUPLICATE)) == ("f-same", DuplicateMatch.EXACT)
    assert repeats([], close(Overlap.DUPLICATE)) == ("f-close", DuplicateMatch.SEMANTIC)
    assert repeats([], close(Overlap.SUBSUMED)) == ("f-close", DuplicateMatch.SUBSUMED)
    assert repeats([], close(Overlap.EXTENDS)) is None
    assert repeats([], None) is None


def test_a_new_fact_extends_the_close_one_unless_it_replaces_it() -> None:
    assert extended(close(Overlap.EXTENDS), ["f-older"]) == "f-close"
    assert extended(close(Overlap.EXTENDS), ["f-close"]) is None
    assert extended(None, []) is None


def test_history_and_warnings_say_what_a_remember_did() -> None:
    assert created_metadata("fact", [], (), None) is None
    assert created_metadata("status", ["f1"], (Redaction("email", 2),), "f2") == {
        "kind": "status",
        "supersedes": ["f1"],
        "redactions": {"email": 2},
        "extends": "f2",
    }
    assert duplicate_warning(DuplicateMatch.EXACT) == "an identical current fact exists; nothing new was stored"
    assert duplicate_warning(DuplicateMatch.SEMANTIC) == duplicate_warning(DuplicateMatch.SUBSUMED)
    assert "identical" not in duplicate_warning(DuplicateMatch.SEMANTIC)


ids = st.text("abcdef0123456789", min_size=1, max_size=6)


@settings(deadline=None)
@given(st.lists(ids, max_size=3), st.one_of(st.none(), st.builds(close, st.sampled_from(list(Overlap)), ids)))
def test_a_statement_repeats_a_fact_exactly_when_one_is_identical_or_close_and_adds_nothing(
    same: list[str], near: NearMatch | None
) -> None:
    repeated = repeats(same, near)
    if same:
        assert repeated == (same[0], DuplicateMatch.EXACT)
    elif near is not None and near.overlap in (Overlap.DUPLICATE, Overlap.SUBSUMED):
        assert repeated is not None and repeated[0] == near.id and repeated[1] is not DuplicateMatch.EXACT
    else:
        assert repeated is None
