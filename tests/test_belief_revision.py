"""Belief revision's decisions on plain data (consolidation/timeline.py, reconcile.py, settle.py):
a relation's versions come out the same in whatever order its statements arrive, the stored
versions are brought in line with them by the fewest writes, and in a group of opposite
polarities the strongest side is believed. No store: the commit that writes these
decisions is tested end to end in test_consolidation.py and test_consolidation_order.py."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from hippograph.consolidation.reconcile import (
    Copy,
    Held,
    Move,
    Own,
    Revised,
    Stored,
    Writes,
    assign,
    belief_of,
    closed_versions,
    edge_of,
    owners,
    plan_writes,
    relinks,
)
from hippograph.consolidation.settle import Stance, Verdict, settle_polarity
from hippograph.consolidation.timeline import Said, Timeline, Version, timeline

START = datetime(2024, 1, 1, tzinfo=UTC)
# No deadline or speed check: the machine may be loaded, and the time a case takes is not tested here.
LOADED = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])

said = st.builds(
    Said,
    at=st.integers(0, 5).map(lambda days: START + timedelta(days=days)),
    episode=st.sampled_from(["e1", "e2", "e3"]),
    position=st.integers(0, 2),
    object=st.sampled_from(["Boston", "Lisbon", "Paris"]),
    negated=st.booleans(),
    confidence=st.sampled_from([0.5, 0.7, 0.9]),
    statement=st.just("Dana lives in ..."),
    kind=st.just("relation"),
    until=st.one_of(st.none(), st.integers(1, 8).map(lambda days: START + timedelta(days=days))),
)
# One statement per place in an episode, as the extractor makes them.
statements = st.lists(said, max_size=8, unique_by=lambda s: (s.episode, s.position))


def shape(result: Timeline) -> list[tuple[object, ...]]:
    """A timeline as plain values, its links as indexes, to compare two of them."""
    index = {id(version): number for number, version in enumerate(result.versions)}
    versions = [
        (
            v.object,
            v.negated,
            tuple(v.said),
            v.valid_to,
            v.status,
            v.expired,
            None if v.superseded_by is None else index[id(v.superseded_by)],
        )
        for v in result.versions
    ]
    contradictions = [(index[id(d)], index[id(v)]) for d, v in result.contradictions]
    return [*versions, tuple(contradictions)]


@LOADED
@given(statements, st.booleans(), st.randoms(use_true_random=False))
def test_the_versions_do_not_depend_on_the_order_statements_arrive_in(
    said_: list[Said], functional: bool, random: object
) -> None:
    shuffled = list(said_)
    random.shuffle(shuffled)  # type: ignore[attr-defined]
    assert shape(timeline(shuffled, functional)) == shape(timeline(said_, functional))


@LOADED
@given(statements, st.booleans())
def test_every_statement_is_in_exactly_one_version(said_: list[Said], functional: bool) -> None:
    placed = [s for version in timeline(said_, functional).versions for s in version.said]
    assert sorted(placed) == sorted(said_)


@LOADED
@given(statements)
def test_a_functional_relation_holds_one_object_at_a_time(said_: list[Said]) -> None:
    result = timeline(said_, functional=True)
    believed = [v for v in result.versions if not v.negated and v.status == "active"]
    assert len(believed) <= 1
    for version in result.versions:
        if version.superseded_by is not None and not version.superseded_by.negated:
            # Ended no later than the version that replaced it began.
            assert version.valid_to is not None and version.valid_to <= version.superseded_by.first.at


def test_a_later_move_supersedes_and_a_late_statement_of_the_old_city_supports_it() -> None:
    def at(day: int, episode: str, city: str) -> Said:
        return Said(START + timedelta(days=day), episode, 0, city, False, 0.9, f"Dana lives in {city}.", "relation")

    boston, lisbon, boston_again = at(1, "e1", "Boston"), at(5, "e3", "Lisbon"), at(3, "e2", "Boston")
    result = timeline([boston, lisbon, boston_again], functional=True)
    first, second = result.versions
    assert (first.object, first.said, first.status, first.valid_to) == (
        "Boston",
        [boston, boston_again],
        "superseded",
        lisbon.at,
    )
    assert (second.object, second.status, second.superseded_by) == ("Lisbon", "active", None)


def stance(fact: str, polarity: str, confidence: float, day: int, status: str = "active", *links: str) -> Stance:
    return Stance(fact, polarity, status, confidence, START + timedelta(days=day), f"h-{fact}", frozenset(links))


def test_the_stronger_side_is_believed_and_linked_to_the_weaker() -> None:
    loves = stance("loves", "like", 0.9, 1)
    hates = stance("hates", "dislike", 0.7, 2)
    verdict = settle_polarity([loves, hates], "hates", "dislike", "like")
    assert verdict == Verdict(links=(("loves", "hates"),), statuses=(("hates", "quarantined"),))


def test_on_equal_confidence_the_later_statement_is_believed() -> None:
    loves = stance("loves", "like", 0.9, 1)
    hates = stance("hates", "dislike", 0.9, 2)
    verdict = settle_polarity([loves, hates], "hates", "dislike", "like")
    assert verdict == Verdict(links=(("hates", "loves"),), statuses=(("loves", "quarantined"),))


def test_a_fact_without_an_opposite_or_not_in_its_group_changes_nothing() -> None:
    loves = stance("loves", "like", 0.9, 1)
    assert settle_polarity([loves], "loves", "like", "dislike") == Verdict()
    assert settle_polarity([loves, stance("hates", "dislike", 0.7, 2)], "gone", "like", "dislike") == Verdict()


groups = st.lists(
    st.tuples(st.sampled_from(["like", "dislike"]), st.sampled_from([0.5, 0.7, 0.9]), st.integers(0, 3)),
    min_size=1,
    max_size=6,
).map(lambda specs: [stance(f"f{n}", p, c, d, "active") for n, (p, c, d) in enumerate(specs)])


@LOADED
@given(groups, st.data())
def test_in_a_settled_group_a_fact_is_believed_exactly_when_it_outranks_every_opposite_one(
    group: list[Stance], data: st.DataObject
) -> None:
    me = data.draw(st.sampled_from(group))
    opposite = "dislike" if me.polarity == "like" else "like"
    verdict = settle_polarity(group, me.id, me.polarity, opposite)
    others = [stance for stance in group if stance.polarity == opposite]
    if not others:
        assert verdict == Verdict()
        return
    status = {stance.id: stance.status for stance in group} | dict(verdict.statuses)
    for stance_ in group:
        rivals = [other.rank for other in group if other.polarity != stance_.polarity]
        assert (status[stance_.id] == "active") == all(stance_.rank > rank for rank in rivals)
    # The fact is linked with each opposite fact once, the believed one first.
    assert sorted(verdict.links) == sorted(
        (me.id, other.id) if me.rank > other.rank else (other.id, me.id) for other in others
    )
    # Settled again with what it wrote, nothing changes: revision is idempotent.
    linked = {other for link in verdict.links for other in link if other != me.id}
    settled = [
        Stance(s.id, s.polarity, status[s.id], s.confidence, s.valid_from, s.hash, s.contradicts | linked)
        if s.id == me.id
        else Stance(s.id, s.polarity, status[s.id], s.confidence, s.valid_from, s.hash, s.contradicts)
        for s in group
    ]
    assert settle_polarity(settled, me.id, me.polarity, opposite) == Verdict()


def stored_as(result: Timeline) -> dict[str, Stored]:
    """The versions of ``result`` as a commit that followed it stored them: one fact each."""
    fact = {id(version): f"f{number}" for number, version in enumerate(result.versions)}
    supersedes = {fact[id(v.superseded_by)]: set[str]() for v in result.versions if v.superseded_by}
    for version in result.versions:
        if version.superseded_by is not None:
            supersedes[fact[id(version.superseded_by)]].add(fact[id(version)])
    contradicts: dict[str, set[str]] = {}
    for denial, version in result.contradictions:
        contradicts.setdefault(fact[id(denial)], set()).add(fact[id(version)])
    return {
        fact[id(v)]: Stored(
            fact[id(v)],
            belief_of(v),
            tuple(v.said),
            frozenset(supersedes.get(fact[id(v)], ())),
            frozenset(contradicts.get(fact[id(v)], ())),
            None if v.negated else edge_of(v),
        )
        for v in result.versions
    }


def fact_ids(sources: list[tuple[Version, Held | Own | Copy]]) -> tuple[dict[Version, str], frozenset[str]]:
    """Each version's fact as revise.py names it: the stored one, "own", or a fresh copy's."""
    facts = {
        version: source.fact if isinstance(source, Held) else "own" if isinstance(source, Own) else f"copy{n}"
        for n, (version, source) in enumerate(sources)
    }
    return facts, frozenset(fact for fact in facts.values() if fact.startswith("copy"))


@LOADED
@given(statements.filter(bool), st.booleans())
def test_stored_versions_that_follow_the_timeline_are_left_as_they_are(said_: list[Said], functional: bool) -> None:
    stored = stored_as(timeline(said_, functional))
    owner = owners(stored)
    again = timeline(list(owner), functional)
    sources = assign(again, owner, said_[0])
    assert all(isinstance(source, Held) for _, source in sources)
    facts, copies = fact_ids(sources)
    assert plan_writes(again, facts, owner, stored, said_[0], copies) == Writes()
    assert closed_versions(again, owner, stored) == []
    superseding = {(facts[v.superseded_by], facts[v]) for v in again.versions if v.superseded_by}
    assert relinks(stored, {fact: row.supersedes for fact, row in stored.items()}, superseding) == ([], [])
    contradicting = {(facts[d], facts[v]) for d, v in again.contradictions}
    assert relinks(stored, {fact: row.contradicts for fact, row in stored.items()}, contradicting) == ([], [])


@LOADED
@given(statements, said, st.booleans())
def test_a_new_statement_is_placed_once_and_each_stored_one_stays_or_moves_once(
    said_: list[Said], new: Said, functional: bool
) -> None:
    assume((new.episode, new.position) not in {(s.episode, s.position) for s in said_})
    stored = stored_as(timeline(said_, functional))
    owner = owners(stored)
    result = timeline([*owner, new], functional)
    sources = assign(result, owner, new)
    held = [source.fact for _, source in sources if isinstance(source, Held)]
    assert len(held) == len(set(held)), "a stored fact holds two versions"
    own = [version for version, source in sources if isinstance(source, Own)]
    assert len(own) <= 1 and all(version.first == new for version in own)
    facts, copies = fact_ids(sources)
    writes = plan_writes(result, facts, owner, stored, new, copies)
    [home] = [version for version in result.versions if new in version.said]
    assert writes.supports == (() if own and own[0] is home else (facts[home],))
    moved = {
        (version, s)
        for version in result.versions
        for s in version.said
        if owner.get(s, facts[version]) != facts[version]
    }
    assert sorted(writes.moves, key=str) == sorted((Move(owner[s], facts[v], s) for v, s in moved), key=str)
    # Every fact that is not the candidate's own ends with the time and belief of its version.
    revised = {r.fact: r.belief for r in writes.revised}
    for version in result.versions:
        fact = facts[version]
        if fact != "own":
            assert revised.get(fact, stored[fact].belief if fact in stored else None) == belief_of(version)


def test_a_late_statement_of_another_city_splits_the_version_it_falls_in() -> None:
    """Boston said on days 1 and 5 was one version; Lisbon said on day 3 arrives late: Boston ends
    on day 3, Lisbon holds until day 5, and a copy of the Boston fact holds from day 5 on."""

    def at(day: int, episode: str, city: str) -> Said:
        return Said(START + timedelta(days=day), episode, 0, city, False, 0.9, f"Dana lives in {city}.", "relation")

    boston, boston_again, lisbon = at(1, "e1", "Boston"), at(5, "e3", "Boston"), at(3, "e2", "Lisbon")
    stored = stored_as(timeline([boston, boston_again], functional=True))
    owner = owners(stored)
    result = timeline([*owner, lisbon], functional=True)
    first, middle, last = result.versions
    assert [source for _, source in assign(result, owner, lisbon)] == [Held("f0"), Own(), Copy("f0")]
    assert closed_versions(result, owner, stored) == [
        {"fact": "f0", "statement": "Dana lives in Boston.", "status": "superseded", "valid_to": lisbon.at.isoformat()}
    ]
    facts = {first: "f0", middle: "own", last: "copy"}
    writes = plan_writes(result, facts, owner, stored, lisbon, frozenset({"copy"}))
    assert writes == Writes(
        moves=(Move("f0", "copy", boston_again),),
        revised=(Revised("f0", belief_of(first), False), Revised("copy", belief_of(last), False)),
        created_edges=(("own", middle), ("copy", last)),
        revised_edges=(("f0", first),),
    )
    assert belief_of(first).valid_to == lisbon.at and belief_of(first).status == "superseded"
    assert relinks(stored, {"f0": frozenset()}, {("own", "f0"), ("copy", "own")}) == (
        [],
        [("copy", "own"), ("own", "f0")],
    )
