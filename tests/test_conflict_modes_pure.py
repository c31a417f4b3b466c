"""Conflict modes decided on plain data (consolidation/settle.py): for each mode, which of a new
fact and the believed facts of the opposite polarity stays current, which is superseded, which is
held in a conflict. The store and the API apply these in test_conflict_modes.py."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hippograph.consolidation.settle import Revision, Stance, Verdict, revise_group, settle, settle_polarity
from hippograph.kernel.model import ConflictMode

START = datetime(2024, 1, 1, tzinfo=UTC)


def stance(fact: str, polarity: str, confidence: float, day: int, *links: str, conflict: str | None = None) -> Stance:
    return Stance(
        fact, polarity, "active", confidence, START + timedelta(days=day), f"h-{fact}", frozenset(links), conflict
    )


# "loves sushi" believed, stated with more confidence; "hates sushi" said a day later.
LOVES = stance("loves", "like", 0.9, 1)
HATES = stance("hates", "dislike", 0.7, 2)


def test_strongest_is_the_revision_hippograph_always_did() -> None:
    for group in ([LOVES, HATES], [HATES, LOVES]):
        assert settle(group, "hates", "dislike", "like", ConflictMode.STRONGEST) == settle_polarity(
            group, "hates", "dislike", "like"
        )
    assert settle([LOVES, HATES], "hates", "dislike", "like", ConflictMode.STRONGEST) == Verdict(
        links=(("loves", "hates"),), statuses=(("hates", "quarantined"),)
    )


def test_keep_existing_supersedes_the_newcomer() -> None:
    verdict = settle([LOVES, HATES], "hates", "dislike", "like", ConflictMode.KEEP_EXISTING)
    assert verdict == Verdict(
        links=(("loves", "hates"),), statuses=(("hates", "superseded"),), supersedes=(("loves", "hates"),)
    )


def test_use_new_supersedes_what_was_believed_whatever_its_confidence() -> None:
    verdict = settle([LOVES, HATES], "hates", "dislike", "like", ConflictMode.USE_NEW)
    assert verdict == Verdict(
        links=(("hates", "loves"),), statuses=(("loves", "superseded"),), supersedes=(("hates", "loves"),)
    )


def test_temporal_lets_the_later_statement_win_whichever_arrived_last() -> None:
    newer = settle([LOVES, HATES], "hates", "dislike", "like", ConflictMode.TEMPORAL)
    assert newer.statuses == (("loves", "superseded"),) and newer.supersedes == (("hates", "loves"),)
    # "loves sushi" said on day 3 but consolidated after "hates sushi" of day 2: still the later.
    late = stance("loves", "like", 0.5, 3)
    assert settle([late, HATES], "loves", "like", "dislike", ConflictMode.TEMPORAL).supersedes == (("loves", "hates"),)
    # Said on day 0, consolidated last: it is the one superseded.
    early = stance("loves", "like", 0.99, 0)
    old = settle([early, HATES], "loves", "like", "dislike", ConflictMode.TEMPORAL)
    assert old.statuses == (("loves", "superseded"),) and old.supersedes == (("hates", "loves"),)


def test_merge_keeps_both_current_and_links_nothing() -> None:
    quarantined = Stance("loves", "like", "quarantined", 0.9, START, "h-loves", frozenset())
    verdict = settle([quarantined, HATES], "hates", "dislike", "like", ConflictMode.MERGE)
    assert verdict == Verdict(statuses=(("loves", "active"),))
    assert settle([LOVES, HATES], "hates", "dislike", "like", ConflictMode.MERGE) == Verdict()


def test_ask_quarantines_both_and_opens_a_conflict() -> None:
    verdict = settle([LOVES, HATES], "hates", "dislike", "like", ConflictMode.ASK)
    assert verdict == Verdict(
        links=(("loves", "hates"),),
        statuses=(("hates", "quarantined"), ("loves", "quarantined")),
        conflict=(None, ("hates", "loves")),
    )


def test_ask_brings_a_new_rival_into_the_conflict_already_open() -> None:
    held = Stance("loves", "like", "quarantined", 0.9, START, "h-loves", frozenset({"hates"}), "c1")
    hates = Stance("hates", "dislike", "quarantined", 0.7, START, "h-hates", frozenset({"loves"}), "c1")
    adores = stance("adores", "like", 0.8, 3)
    verdict = settle([held, hates, adores], "adores", "like", "dislike", ConflictMode.ASK)
    assert verdict.conflict == ("c1", ("adores",))
    assert verdict.links == (("hates", "adores"),) and verdict.statuses == (("adores", "quarantined"),)


@pytest.mark.parametrize("mode", [m for m in ConflictMode if m is not ConflictMode.STRONGEST])
def test_a_settled_conflict_is_not_settled_again(mode: ConflictMode) -> None:
    """Every mode but the default settles only facts not yet linked: a second statement of either
    side, or a mode changed since, does not reopen what was decided."""
    linked = [stance("loves", "like", 0.9, 1, "hates"), stance("hates", "dislike", 0.7, 2, "loves")]
    assert settle(linked, "hates", "dislike", "like", mode) == Verdict()
    alone = [stance("loves", "like", 0.9, 1)]
    assert settle(alone, "loves", "like", "dislike", mode) == Verdict()
    assert settle([LOVES, HATES], "gone", "like", "dislike", mode) == Verdict()


def applied(group: list[Stance], verdict: Verdict) -> list[Stance]:
    """The group as the store holds it after the verdict: superseded facts are no longer believed
    and leave it, links are seen from both ends, held facts carry their conflict."""
    status = {s.id: s.status for s in group} | dict(verdict.statuses)
    linked = {s.id: set(s.contradicts) for s in group}
    for a, b in verdict.links:
        linked[a].add(b)
        linked[b].add(a)
    held = set(verdict.conflict[1]) if verdict.conflict else set()
    conflict = (verdict.conflict[0] or "new") if verdict.conflict else None
    return [
        Stance(
            s.id,
            s.polarity,
            status[s.id],
            s.confidence,
            s.valid_from,
            s.hash,
            frozenset(linked[s.id]),
            conflict if s.id in held else s.conflict,
        )
        for s in group
        if status[s.id] != "superseded"
    ]


stances = st.lists(
    st.builds(
        stance,
        fact=st.sampled_from(["a", "b", "c", "d"]),
        polarity=st.sampled_from(["like", "dislike"]),
        confidence=st.sampled_from([0.5, 0.7, 0.9]),
        day=st.integers(0, 4),
    ),
    min_size=1,
    max_size=5,
    unique_by=lambda s: s.id,
)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stances, st.sampled_from(list(ConflictMode)), st.data())
def test_settling_what_was_settled_changes_nothing(
    group: list[Stance], mode: ConflictMode, data: st.DataObject
) -> None:
    me = data.draw(st.sampled_from(group))
    opposite = "dislike" if me.polarity == "like" else "like"
    verdict = settle(group, me.id, me.polarity, opposite, mode)
    after = applied(group, verdict)
    assert settle(after, me.id, me.polarity, opposite, mode) == Verdict(), (verdict, after)
    if verdict.supersedes or mode is ConflictMode.STRONGEST:
        return
    # MERGE and ASK supersede nothing: every fact stays, active for MERGE, quarantined for ASK.
    wanted = "quarantined" if mode is ConflictMode.ASK else "active"
    changed = {s.id for s in group} - {s.id for s in after}
    assert not changed
    if verdict.statuses:
        assert {status for _, status in verdict.statuses} == {wanted}


def test_a_blocking_namespace_refuses_the_supersession_and_doubts_the_newcomer() -> None:
    """Destructive proposals blocked: what was believed stays as it was, the newcomer is
    quarantined against it, and the supersession goes to History as refused."""
    for mode, refused in ((ConflictMode.USE_NEW, ("hates", "loves")), (ConflictMode.KEEP_EXISTING, ("loves", "hates"))):
        revision = revise_group([LOVES, HATES], "hates", "dislike", "like", mode, blocking=True)
        assert revision == Revision(
            Verdict(links=(("loves", "hates"),), statuses=(("hates", "quarantined"),)), (refused,)
        )
        assert revision.statuses == (("hates", "quarantined"),)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stances, st.sampled_from(list(ConflictMode)), st.booleans(), st.data())
def test_a_revision_writes_the_verdict_unless_blocking_refuses_what_it_supersedes(
    group: list[Stance], mode: ConflictMode, blocking: bool, data: st.DataObject
) -> None:
    me = data.draw(st.sampled_from(group))
    opposite = "dislike" if me.polarity == "like" else "like"
    verdict = settle(group, me.id, me.polarity, opposite, mode)
    revision = revise_group(group, me.id, me.polarity, opposite, mode, blocking=blocking)
    # A replaced fact's status is the supersession's to write, never the status update's.
    replaced = {b for _, b in revision.verdict.supersedes}
    assert not replaced & {fact for fact, _ in revision.statuses}
    if not (blocking and verdict.supersedes):
        assert revision == Revision(verdict)
        return
    assert revision.refused == verdict.supersedes and not revision.verdict.supersedes
    # Only the fact just stated changes status, and every fact stays believed.
    assert {fact for fact, _ in revision.statuses} <= {me.id}
    assert all(status == "quarantined" for _, status in revision.statuses)
    assert all(me.id in link for link in revision.verdict.links)
