"""What committing a batch writes, decided on plain data (consolidation/commit.py): the entity rows
of every mention, each mention's entity back per episode, mentions, co-occurrences, fact
identities, and merges held in a namespace that blocks them. No store: test_consolidation.py and
test_consolidation_order.py commit these rows end to end."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hippograph.consolidation.batch import EpisodeWork
from hippograph.consolidation.commit import batch_rows, entity_ids, entity_rows, hold_blocked_merges
from hippograph.extraction.model import EntityType, Extraction, FactCandidate, Mention
from hippograph.kernel.keys import relation_fact_hash
from hippograph.resolution.resolve import NameRef, Resolution

NOW = datetime(2026, 11, 28, tzinfo=UTC)
DANA = NameRef("person", "dana", "Dana", False)
BOSTON = NameRef("place", "boston", "Boston", False)
LISBON = NameRef("place", "lisbon", "Lisbon", False)
THING = NameRef("other", "boston", "boston", False)


def mention(ref: NameRef, sentence: int) -> Mention:
    return Mention(ref.name, 0, len(ref.name), EntityType(ref.type), None, "ner", sentence=sentence)


def work(
    episode: str,
    namespace: str,
    refs: list[tuple[NameRef, int]],
    resolutions: dict[NameRef, Resolution],
    facts: tuple[FactCandidate, ...] = (),
) -> EpisodeWork:
    extraction = Extraction((), tuple(mention(ref, sentence) for ref, sentence in refs), (), facts)
    return EpisodeWork(
        episode, namespace, NOW, extraction, tuple(ref for ref, _ in refs), resolutions, (None,) * len(facts), "general"
    )


KNOWN = {DANA: Resolution("dana-1", "exact", "person", "dana"), BOSTON: Resolution(None, "new")}


def test_each_mention_is_a_row_named_by_its_place_and_a_new_entity_gets_an_id() -> None:
    first = work("e1", "team-a", [(DANA, 0), (BOSTON, 0)], KNOWN)
    second = work("e2", "team-a", [(THING, 1)], {THING: Resolution(None, "new")})
    rows = entity_rows([first, second])
    assert [(r["ref"], r["order"], r["id"] == "dana-1") for r in rows] == [
        (0, "e1:00000", True),
        (1, "e1:00001", False),
        (2, "e2:00000", False),
    ]
    # Found by its key: the resolution's, else the mention's own.
    assert [(r["type"], r["canonical"], r["refine"]) for r in rows] == [
        ("person", "dana", "person"),
        ("place", "boston", "place"),
        ("other", "boston", None),  # an untyped mention refines no entity's type
    ]
    assert rows[1]["id"] and rows[1]["id"] != rows[2]["id"]
    assert {r["namespace_token"] for r in rows} == {"ns" + b"team-a".hex()}


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 4), max_size=5), st.randoms(use_true_random=False))
def test_each_episode_gets_back_the_entities_of_its_own_mentions_in_order(counts: list[int], random: object) -> None:
    refs = [DANA, BOSTON, LISBON, THING]
    works = [
        work(f"e{n}", "ns", [(refs[i % 4], 0) for i in range(count)], {ref: Resolution(None, "new") for ref in refs})
        for n, count in enumerate(counts)
    ]
    rows = entity_rows(works)
    answered = [(row["ref"], row["order"]) for row in rows]
    random.shuffle(answered)  # type: ignore[attr-defined]
    # The store answers in any order; the ref numbers each row back to its mention.
    ids = entity_ids(works, dict(answered))
    assert ids == [[f"e{n}:{i:05d}" for i in range(count)] for n, count in enumerate(counts)]


def test_names_said_together_are_paired_once_and_never_with_themselves() -> None:
    # Dana twice in sentence 0 (two spellings resolved to one entity) beside Boston; Lisbon alone.
    dana_again = NameRef("person", "dana", "Dana Lee", False)
    refs = [(DANA, 0), (BOSTON, 0), (dana_again, 0), (LISBON, 1)]
    episode = work("e1", "ns", refs, {ref: Resolution(None, "new") for ref, _ in refs})
    batch = batch_rows([episode], [["dana-1", "boston-1", "dana-1", "lisbon-1"]], {"e1": NOW})
    assert batch.pairs == [{"a": "boston-1", "b": "dana-1", "first_time": NOW}]
    assert [(m["entity"], m["text"]) for m in batch.mentions] == [
        ("dana-1", "Dana"),
        ("boston-1", "Boston"),
        ("dana-1", "Dana Lee"),
        ("lisbon-1", "Lisbon"),
    ]


def test_a_new_name_is_an_exact_mention_and_a_relation_fact_is_found_by_its_edge() -> None:
    lives = FactCandidate("Dana lives in Boston.", "relation", 0, 0.9, subject=0, object=1, predicate="LIVES_IN")
    likes = FactCandidate("Dana likes tea.", "preference", 1, 0.8, subject=0, predicate="like", polarity="like")
    episode = work("e1", "ns", [(DANA, 0), (BOSTON, 0)], KNOWN, (lives, likes, likes))
    batch = batch_rows([episode], [["dana-1", "boston-1"]], {"e1": NOW})
    assert [m["method"] for m in batch.mentions] == ["exact", "exact"]
    relation, statement, again = batch.identities[0]
    assert (relation.edge, relation.digest) == (
        ("dana-1", "boston-1"),
        relation_fact_hash("dana-1", "LIVES_IN", "boston-1", False),
    )
    assert statement.edge is None and statement == again
    # A fact stated twice in one episode is looked up once.
    assert [p["hash"] for p in batch.probes] == [relation.digest, statement.digest]


def test_a_blocking_namespace_holds_fuzzy_merges_and_records_each() -> None:
    merging = {DANA: Resolution("dana-1", "fuzzy", "person", "dana"), BOSTON: Resolution("boston-1", "exact")}
    blocked = work("e1", "careful", [(DANA, 0), (BOSTON, 0)], merging)
    free = work("e2", "open", [(DANA, 0)], merging)
    [held, kept], events = hold_blocked_merges([blocked, free], {"careful"}, NOW)
    assert held.resolutions == {DANA: Resolution(None, "new"), BOSTON: merging[BOSTON]}
    assert kept == free
    [event] = events
    assert (event["namespace"], event["target"], event["event"]) == ("careful", "careful", "consolidation_blocked")
    proposal = json.loads(event["metadata"])
    assert (proposal["episode"], proposal["name"], proposal["into"]) == ("e1", "Dana", "dana-1")
