"""Prospective hints (extraction/hints.py) and the hint channel that searches them: a question
that shares no word with an episode finds it through the words consolidation derived for it; a
hit only hints found ranks below what the text channels found; the setting turns the channel off;
another namespace's hints stay its own."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime

import pytest
from support.client import GraphQLClient
from support.operations import capture_turns, consolidate_over_api, recall_over_api

from hippograph.api.queries import recall_parts
from hippograph.extraction.hints import HintRules, episode_hints
from hippograph.extraction.model import (
    Concept,
    EntityType,
    Extraction,
    FactCandidate,
    Mention,
    Precision,
    Relation,
    Sentence,
    When,
)
from hippograph.recall.fusion import Ranked, reciprocal_rank_fusion
from hippograph.recall.parts import RecallParts
from hippograph.recall.request import Channel, RecallRequest
from hippograph.recall.service import recall
from hippograph.runtime import Runtime

TURNS = [
    ("Alice", "Alice: I love painting landscapes with watercolors.", "2023-05-01T09:00:00Z"),
    ("Ben", "Ben: The weather was lovely on Sunday.", "2023-05-01T09:01:00Z"),
]
# No word of it is in Alice's turn: "favorite" is what a question about a preference says.
QUESTION = "Which hobby is the favorite one?"


def hinted(runtime: Runtime) -> RecallParts:
    """What recall uses of the suite's runtime, with the hint channel on (it is off by default:
    docs/benchmarks.md)."""
    parts = recall_parts(runtime)
    return replace(parts, settings=replace(parts.settings, hint_channel=True))


def hint_hits(runtime: Runtime, namespace: str, query: str = QUESTION) -> list[str]:
    request = RecallRequest(query, namespace, 5, channels=frozenset({Channel.HINT}), count_access=False)
    hits = recall(hinted(runtime), request).hits
    for hit in hits:
        assert [score.channel for score in hit.channels] == [Channel.HINT]
    return [hit.memory.id for hit in hits]


@dataclass(frozen=True)
class Hinted:
    """TURNS captured and consolidated once for the tests that only read them."""

    namespace: str
    painting: str
    raw_hits: list[str]  # the hint channel's hits between capture and consolidation


@pytest.fixture(scope="module")
def consolidated(gql: GraphQLClient, runtime: Runtime, module_namespace: str) -> Hinted:
    painting, _ = capture_turns(gql, module_namespace, TURNS, session="s1")
    raw_hits = hint_hits(runtime, module_namespace)
    assert consolidate_over_api(gql, module_namespace)["processed"] == len(TURNS)
    return Hinted(module_namespace, painting, raw_hits)


def test_a_question_finds_an_episode_by_its_hints_once_consolidated(
    gql: GraphQLClient, runtime: Runtime, consolidated: Hinted
) -> None:
    namespace, painting = consolidated.namespace, consolidated.painting
    assert consolidated.raw_hits == []  # a raw episode has no hints yet
    assert hint_hits(runtime, namespace) == [painting]
    # The keyword channel cannot: the question shares no word with the turn.
    keyword = recall_over_api(gql, namespace, QUESTION, channels=["KEYWORD"], countAccess=False)["hits"]
    assert painting not in [hit["memory"]["id"] for hit in keyword]
    # Every channel, the hint channel on: it is among those that found the turn.
    hits = recall(hinted(runtime), RecallRequest(QUESTION, namespace, 5, count_access=False)).hits
    found = {hit.memory.id: {score.channel for score in hit.channels} for hit in hits}
    assert Channel.HINT in found[painting]


def test_hints_stay_in_their_namespace(
    gql: GraphQLClient, namespace: str, runtime: Runtime, consolidated: Hinted
) -> None:
    # The other namespace is the module's: this test writes only in its own.
    other, theirs = consolidated.namespace, consolidated.painting
    capture_turns(gql, namespace, [TURNS[1]], session="s1")
    consolidate_over_api(gql, namespace)
    assert hint_hits(runtime, other) == [theirs]
    assert hint_hits(runtime, namespace) == []


def test_the_hint_channel_is_off_unless_the_setting_turns_it_on(
    gql: GraphQLClient, runtime: Runtime, consolidated: Hinted
) -> None:
    namespace = consolidated.namespace
    # The server's default: a request for the channel is answered, by no hint hit.
    answer = recall_over_api(gql, namespace, QUESTION, channels=["HINT"], limit=5, countAccess=False)
    assert answer["hits"] == []
    assert hint_hits(runtime, namespace) != []


RULES = HintRules(
    max_words=80,
    relations={"LIVES_IN": ("live", "home")},
    kinds={"preference": ("favorite",), "event": ("happen",)},
    entity_types={"place": ("place",)},
)


def _extraction() -> Extraction:
    speaker = Mention("Dana", 0, 4, EntityType.PERSON, None, "speaker", role="speaker")
    city = Mention("NYC", 25, 28, EntityType.PLACE, "New York City", "ruler", sentence=0)
    when = When(datetime(2023, 5, 7, tzinfo=UTC), None, Precision.DAY, bounded=False, text="last Sunday")
    fact = FactCandidate("Dana moved to NYC last Sunday.", "event", 0, 0.9, subject=0, object=1, when=when)
    relation = Relation(0, "LIVES_IN", 1, 0.9, negated=False, sentence=0)
    concept = Concept("pottery class", "pottery classes", 40, 55, 0)
    sentence = Sentence(6, 55, "I moved to NYC last Sunday for pottery classes.")
    return Extraction((sentence,), (speaker, city), (relation,), (fact,), (concept,))


TEXT = "Dana: I moved to NYC last Sunday for pottery classes."


def test_hints_are_the_words_a_question_may_use_that_the_text_does_not() -> None:
    hints = episode_hints(TEXT, _extraction(), names=["big apple"], rules=RULES).split()
    # The dictionary's and resolution's names, the relation's, kind's and type's words, the date's
    # month and year; stems, each once.
    assert hints == ["new", "york", "citi", "big", "appl", "live", "home", "happen", "may", "2023", "place"]
    # Nothing the text says already (moved, NYC, pottery class), no stop word.
    assert not {"move", "nyc", "potteri", "class", "dana", "to", "the"} & set(hints)


def test_hints_are_capped_and_empty_for_an_empty_extraction() -> None:
    capped = replace(RULES, max_words=3)
    assert episode_hints(TEXT, _extraction(), rules=capped).split() == ["new", "york", "citi"]
    assert episode_hints("Hello there", Extraction((), (), (), ()), rules=RULES) == ""


def test_a_date_said_to_the_year_only_names_its_year() -> None:
    extraction = _extraction()
    year = replace(
        extraction.facts[0], when=When(datetime(2021, 1, 1, tzinfo=UTC), None, Precision.YEAR, False, "2021")
    )
    hints = episode_hints("", replace(extraction, facts=(year,)), rules=RULES).split()
    assert "2021" in hints and "januari" not in hints


def test_a_hit_only_the_hint_channel_found_counts_as_ranked_lower() -> None:
    rankings = {
        Channel.KEYWORD: [Ranked("a", 1.0, "Episode"), Ranked("b", 1.0, "Episode")],
        Channel.HINT: [Ranked("h", 1.0, "Episode"), Ranked("b", 1.0, "Episode")],
    }
    fused = {hit.id: hit.score for hit in reciprocal_rank_fusion(rankings, k=5, supporting={Channel.HINT: 10})}
    assert fused["h"] == 1 / (5 + 1 + 10)
    # Found by another channel too, a hint counts at its own rank.
    assert fused["b"] == 1 / (5 + 2) + 1 / (5 + 2)
    assert fused["a"] > fused["h"]
    # Without the offset the hint-only hit would have tied the keyword channel's best.
    plain = {hit.id: hit.score for hit in reciprocal_rank_fusion(rankings, k=5)}
    assert plain["h"] == plain["a"]
