"""Relative and partial dates set valid time: resolved against the episode's own time, kept with
their precision, read back through the API, and the same after consolidating again."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from spacy.language import Language
from support.client import GraphQLClient
from support.operations import capture_turns, consolidate_over_api, entity_id, facts_of

from hippograph.consolidation.worker import consolidate, requeue
from hippograph.extraction.model import When
from hippograph.extraction.when import past_words, sentence_time
from hippograph.runtime import Runtime

SAID = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)  # a Monday in spring


def day(month: int, d: int, year: int = 2023) -> datetime:
    return datetime(year, month, d, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "start", "end", "precision", "bounded"),
    [
        ("I painted a sunset yesterday.", day(5, 7), day(5, 8), "day", False),
        ("I moved to Boston last spring.", day(3, 1, 2022), day(6, 1, 2022), "season", False),
        ("We went camping two weeks ago.", day(4, 24), day(5, 1), "week", False),
        ("I'm going to a concert next Tuesday.", day(5, 9), day(5, 10), "day", False),
        ("I graduated in 2019.", day(1, 1, 2019), day(1, 1, 2020), "year", False),
        ("We're going to Italy this summer.", day(6, 1), day(9, 1), "season", False),
        ("Caroline moved from Sweden four years ago.", day(1, 1, 2019), day(1, 1, 2020), "year", False),
        ("I've worked at the shelter since March.", day(3, 1), None, "month", False),
        ("I have been a nurse for three years.", day(1, 1, 2020), None, "year", False),
        ("I worked at IBM from 2015 to 2018.", day(1, 1, 2015), day(1, 1, 2019), "year", True),
        ("We went to Spain in 2019 for three months.", day(1, 1, 2019), day(4, 1, 2019), "year", True),
        ("I stayed at my mom's until last Friday.", None, day(5, 6), "day", True),
    ],
)
def test_a_sentence_states_its_time_against_when_it_was_said(
    nlp: Language, text: str, start: datetime | None, end: datetime | None, precision: str, bounded: bool
) -> None:
    when = sentence_time(nlp(text)[:], SAID)
    assert isinstance(when, When)
    assert (when.start, when.end, str(when.precision), when.bounded) == (start, end, precision, bounded)


def test_a_number_alone_is_no_date_and_a_date_that_names_one_still_is(nlp: Language) -> None:
    # NER tags the count "44" as a date; read alone it was the year 1944.
    assert sentence_time(nlp("Chen Wei and I visited Valparaiso again (44).")[:], SAID) is None
    when = sentence_time(nlp("We met on May 12.")[:], SAID)  # the last May 12 before it was said
    assert when is not None and (when.start, str(when.precision)) == (day(5, 12, 2022), "day")


def test_no_date_and_a_duration_with_nothing_to_count_from_state_no_time(nlp: Language) -> None:
    assert sentence_time(nlp("I love painting landscapes.")[:], SAID) is None
    assert sentence_time(nlp("I lived in Paris for three years.")[:], SAID) is None


def test_questions_about_the_past_are_told_by_their_words() -> None:
    assert past_words("Where did Caroline live before?")
    assert past_words("What did Melanie use to paint?")
    assert not past_words("Where does Caroline live?")


STORY = [
    ("Caroline", "Caroline: I moved to Boston last spring.", "2023-05-08T13:56:00Z"),
    ("Melanie", "Melanie: We went to Spain in 2019 for three months.", "2023-05-08T14:00:00Z"),
    ("Melanie", "Melanie: We went camping two weeks ago.", "2023-05-08T14:02:00Z"),
]


def _homes(gql: GraphQLClient, namespace: str, person: str, as_of: str | None) -> list[dict]:
    hood = gql.data("neighborhood", namespace=namespace, entityId=person, depth=1, asOf=as_of)["neighborhood"]
    names = {node["id"]: node["name"] for node in hood["nodes"]}
    return [{**edge, "place": names[edge["target"]]} for edge in hood["edges"] if edge["source"] == person]


def test_relative_dates_set_valid_time_with_precision(gql: GraphQLClient, namespace: str, runtime: Runtime) -> None:
    capture_turns(gql, namespace, STORY, session="s1")
    consolidate_over_api(gql, namespace)
    caroline = entity_id(gql, namespace, "Caroline", "person")

    [home] = [e for e in gql.data("timeline", namespace=namespace, entityId=caroline)["timeline"]
              if e["fact"]["predicate"] == "LIVES_IN"]  # fmt: skip
    assert home["fact"]["validFrom"] == "2022-03-01T00:00:00Z"  # last spring, said in May 2023
    assert home["fact"]["validPrecision"] == "season" and home["fact"]["validTo"] is None
    # asOf: she lived in Boston in the summer of 2022, before she said so, and not before spring.
    assert [
        e["place"] for e in _homes(gql, namespace, caroline, "2022-07-01T00:00:00Z") if e["type"] == "LIVES_IN"
    ] == ["Boston"]
    assert not [e for e in _homes(gql, namespace, caroline, "2022-01-01T00:00:00Z") if e["type"] == "LIVES_IN"]

    facts = facts_of(gql, namespace)
    # An event ends where the text ends it, or with the period it names.
    [spain] = [f for f in facts if "Spain" in f["statement"]]
    assert (spain["validFrom"], spain["validTo"], spain["validPrecision"]) == (
        "2019-01-01T00:00:00Z",
        "2019-04-01T00:00:00Z",
        "year",
    )
    [camping] = [f for f in facts if "camping" in f["statement"]]
    assert (camping["kind"], camping["validFrom"], camping["validTo"], camping["validPrecision"]) == (
        "event",
        "2023-04-24T00:00:00Z",
        "2023-05-01T00:00:00Z",
        "week",
    )

    before = (gql.data("timeline", namespace=namespace, entityId=caroline)["timeline"], facts)
    assert requeue(runtime.store, namespace) == len(STORY)
    assert consolidate(runtime, namespace=namespace).processed == len(STORY)
    after = (
        gql.data("timeline", namespace=namespace, entityId=caroline)["timeline"],
        facts_of(gql, namespace),
    )
    assert after == before
