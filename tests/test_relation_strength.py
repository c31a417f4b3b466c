"""Reverse readings of typed relations (extract/relation_directions.toml) and their strength
(kernel/strength.py), on plain data."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from hippograph.extraction.directions import directions, parse_directions, reverse_type
from hippograph.extraction.vocabulary import relation_types
from hippograph.kernel.config import RelationStrength, Settings
from hippograph.kernel.rules import load_rules
from hippograph.kernel.strength import count_score, recency_score, strength
from hippograph.recall.ppr import Subgraph, personalized_pagerank

NOW = datetime(2026, 11, 28, tzinfo=UTC)


def test_symmetric_types_read_as_themselves_from_the_object() -> None:
    for name in ("MARRIED_TO", "SIBLING_OF", "FRIEND_OF"):
        assert reverse_type(name, "person") == name
    assert directions().symmetric == {"MARRIED_TO", "SIBLING_OF", "FRIEND_OF"}


def test_inverse_pairs_read_as_each_other_where_the_object_can_be_the_subject() -> None:
    assert reverse_type("PARENT_OF", "person") == "CHILD_OF"
    assert reverse_type("MANAGES", "person") == "REPORTS_TO"
    assert reverse_type("REPORTS_TO", "person") == "MANAGES"
    # "Lisa MANAGES Atlas": a project reports to nobody.
    assert reverse_type("MANAGES", "project") is None
    assert reverse_type("WORKS_AT", "organization") is None
    assert reverse_type("CHILD_OF", "person") is None  # never stored, so never read


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda data: data["symmetric"].append("MARRIED"), "symmetric type 'MARRIED' is not declared"),
        (lambda data: data["symmetric"].append("WORKS_AT"), "symmetric type 'WORKS_AT' takes other subjects"),
        (lambda data: data["inverse"].append({"type": "MARRIED_TO", "inverse": "X"}), "inverse 3: MARRIED_TO / X"),
        (lambda data: data["inverse"].append({"type": "NOPE", "inverse": "X"}), "inverse 3: type 'NOPE'"),
        (lambda data: data["inverse"][0].update(inverze="X"), "inverse 1: unknown key 'inverze'"),
    ],
)
def test_a_bad_directions_file_is_refused_naming_the_entry(edit: object, message: str) -> None:
    data = load_rules("relation_directions")
    edit(data)  # type: ignore[operator]
    with pytest.raises(ValueError, match="relation_directions.toml") as error:
        parse_directions(data, relation_types())
    assert message in str(error.value)


def test_count_saturates_from_one_support() -> None:
    assert count_score(0, 2.0) == count_score(1, 2.0) == pytest.approx(1 - math.exp(-0.5))
    assert count_score(2, 2.0) == pytest.approx(1 - math.exp(-1))
    assert count_score(3, 2.0) < count_score(4, 2.0) < 1.0
    assert count_score(4, 2.0) - count_score(3, 2.0) < count_score(2, 2.0) - count_score(1, 2.0)


def test_recency_halves_every_half_life_and_never_exceeds_one() -> None:
    assert recency_score(NOW, NOW, 90.0) == 1.0
    assert recency_score(NOW + timedelta(days=3), NOW, 90.0) == 1.0
    assert recency_score(NOW - timedelta(days=90), NOW, 90.0) == pytest.approx(0.5)
    assert recency_score(NOW - timedelta(days=180), NOW, 90.0) == pytest.approx(0.25)
    # Whole days: two reads of one day give one strength.
    assert recency_score(NOW - timedelta(days=90, hours=23), NOW, 90.0) == recency_score(
        NOW - timedelta(days=90), NOW, 90.0
    )


def test_strength_is_the_weighted_sum_of_count_recency_and_confidence() -> None:
    scale = RelationStrength(count_scale=2.0, half_life_days=90.0)
    expected = 0.4 * (1 - math.exp(-1)) + 0.3 * 0.5 + 0.3 * 0.8
    assert strength(2, NOW - timedelta(days=90), 0.8, NOW, scale) == pytest.approx(expected)
    assert strength(1000, NOW, 1.0, NOW, scale) == pytest.approx(1.0, abs=1e-9)
    assert strength(1, NOW - timedelta(days=3650), 0.0, NOW, scale) == pytest.approx(0.4 * (1 - math.exp(-0.5)))
    # Confidence outside [0, 1] is clamped, not amplified.
    assert strength(1, NOW, 7.0, NOW, scale) == strength(1, NOW, 1.0, NOW, scale)


def test_more_support_later_and_surer_is_stronger() -> None:
    base = strength(1, NOW - timedelta(days=30), 0.6, NOW)
    assert strength(3, NOW - timedelta(days=30), 0.6, NOW) > base
    assert strength(1, NOW - timedelta(days=1), 0.6, NOW) > base
    assert strength(1, NOW - timedelta(days=30), 0.9, NOW) > base


def test_the_scale_comes_from_settings() -> None:
    settings = Settings.from_env(
        {"HIPPOGRAPH_RELATION_STRENGTH_HALF_LIFE_DAYS": "30", "HIPPOGRAPH_RELATION_STRENGTH_COUNT_SCALE": "5"}
    )
    assert settings.relations == RelationStrength(count_scale=5.0, half_life_days=30.0)


def test_a_weighted_link_leads_the_walk_less_than_a_full_one() -> None:
    """Two neighbours of a named entity, each with one memory: the one over the stronger typed
    edge ranks first; unweighted, they tie."""
    graph = Subgraph()
    graph.link("anna", "ben", 0.9)
    graph.link("anna", "carl", 0.3)
    graph.link("ben", "m1")
    graph.link("carl", "m2")
    scores = personalized_pagerank(graph, {"anna": 1.0})
    assert scores["m1"] > scores["m2"] > 0
    graph.link("anna", "carl", 0.9)  # the stronger of two edges counts
    tied = personalized_pagerank(graph, {"anna": 1.0})
    assert tied["m1"] == pytest.approx(tied["m2"])
