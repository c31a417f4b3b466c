"""When the model's organization is not trusted (extraction/model_types.py): common given names,
lowercase spans, headline and shouted sentences; and when its group is an organization (a plural
NORP span), through the real extractor. Every name here is invented or a common word; each sentence
is one where the statistical model itself says organization, or NORP where a group is tested."""

from __future__ import annotations

import pytest

from hippograph.extraction.model import Turn
from hippograph.extraction.pipeline import Extractor


def typed(extractor: Extractor, text: str) -> dict[str, tuple[str, str]]:
    return {m.text: (m.type.value, m.source) for m in extractor.extract(Turn(text)).mentions}


def model_organizations(extractor: Extractor, text: str) -> list[str]:
    return [ent.text for ent in extractor.nlp(text).ents if ent.label_ == "ORG"]


@pytest.mark.parametrize(
    ("text", "name"),
    [("Darnell is the best, can not wait for Friday", "Darnell"), ("Congrats Yolanda on the win", "Yolanda")],
)
def test_a_common_given_name_alone_is_a_person(extractor: Extractor, text: str, name: str) -> None:
    assert model_organizations(extractor, text) == [name]
    assert typed(extractor, text)[name] == ("person", "given_name")


def test_a_designator_and_a_relation_slot_outrank_the_given_name(extractor: Extractor) -> None:
    assert typed(extractor, "Cedric Group won the contract")["Cedric Group"] == ("organization", "designator")
    extraction = extractor.extract(Turn("Priya works at Chase now."))
    mentions = extraction.mentions
    works_at = [
        (mentions[r.subject].text, mentions[r.object].text, mentions[r.object].type.value)
        for r in extraction.relations
        if r.predicate == "WORKS_AT"
    ]
    assert works_at == [("Priya", "Chase", "organization")]


def test_a_lowercase_span_is_no_organization_on_the_model_word_alone(extractor: Extractor) -> None:
    text = "vantora shipped my order late again"
    assert model_organizations(extractor, text) == ["vantora"]
    assert typed(extractor, text)["vantora"] == ("other", "ner")


@pytest.mark.parametrize(
    "text",
    [
        "Kelvix Announces New Partnership With Vantora Tonight",  # a headline in title case
        "VANTORA SHIPPED MY ORDER LATE AGAIN",  # shouting
    ],
)
def test_in_a_sentence_of_capitals_the_model_organizations_lose_their_type(extractor: Extractor, text: str) -> None:
    assert model_organizations(extractor, text)
    mentions = typed(extractor, text)
    assert mentions
    assert all(kind == "other" for kind, _ in mentions.values())


def test_an_ordinary_sentence_keeps_the_model_organization(extractor: Extractor) -> None:
    assert typed(extractor, "We met the people from Quillon yesterday.")["Quillon"] == ("organization", "ner")


def model_groups(extractor: Extractor, text: str) -> list[tuple[str, str]]:
    return [(ent.text, ent[-1].tag_) for ent in extractor.nlp(text).ents if ent.label_ == "NORP"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("The Methodists meet on Sunday.", "Methodists"),
        # Lowercase: the model knows the word, so the lowercase rule for organizations does not apply.
        ("the socialists won the vote lol", "socialists"),
    ],
)
def test_a_group_named_by_its_members_is_an_organization(extractor: Extractor, text: str, name: str) -> None:
    assert model_groups(extractor, text) == [(name, "NNPS")]
    assert typed(extractor, text)[name] == ("organization", "ner")


def test_a_group_adjective_stays_a_concept(extractor: Extractor) -> None:
    text = "We had Italian food tonight."
    assert model_groups(extractor, text) == [("Italian", "JJ")]
    assert typed(extractor, text)["Italian"] == ("concept", "ner")


def test_a_greeting_the_model_calls_a_group_stays_what_it_was(extractor: Extractor) -> None:
    # The junk filter's noise words are no names, whatever the model's label.
    text = "Congrats, Odalys!"
    assert model_groups(extractor, text) == [("Congrats", "NNPS")]
    assert typed(extractor, text)["Congrats"] == ("concept", "ner")
