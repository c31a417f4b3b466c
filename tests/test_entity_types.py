"""Entity types that hold: organisation designators, argument-type constraints of relation rules
and the type vote across an entity's mentions, through extraction and through consolidation on
the real store."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import replace

from conftest import GraphQLClient, capture_turns, census

from hippograph.consolidation.worker import consolidate
from hippograph.extraction.model import EntityType, Extraction, Mention, Sentence, Turn
from hippograph.runtime import Runtime


def entity_named(gql: GraphQLClient, namespace: str, name: str) -> dict:
    edges = gql.data("entities", namespace=namespace, search=name, first=10)["entities"]["edges"]
    matches = [edge["node"] for edge in edges if edge["node"]["name"] == name]
    assert len(matches) == 1, f"want one entity named {name}: {edges}"
    return matches[0]


def test_a_new_employer_with_a_designator_becomes_the_current_works_at(
    gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    turns = [
        ("notes", "Alice Johnson works at Acme Corp.", "2022-02-01T10:00:00Z"),
        ("notes", "Alice Johnson left Acme Corp and now works at Globex Corporation.", "2023-09-01T10:00:00Z"),
    ]
    capture_turns(gql, namespace, turns, session="s1")
    assert consolidate(runtime, namespace=namespace).processed == 2

    alice = entity_named(gql, namespace, "Alice Johnson")
    globex = entity_named(gql, namespace, "Globex Corporation")
    assert globex["type"] == "organization"
    edges = gql.data("neighborhood", namespace=namespace, entityId=alice["id"], depth=1)["neighborhood"]["edges"]
    current = [edge for edge in edges if edge["type"] == "WORKS_AT"]
    assert [(edge["target"], edge["validTo"]) for edge in current] == [(globex["id"], None)]
    then = gql.data("neighborhood", namespace=namespace, entityId=alice["id"], depth=1,
                    asOf="2022-06-01T00:00:00Z")["neighborhood"]["edges"]
    acme = entity_named(gql, namespace, "Acme Corp")
    assert [(e["target"], e["validTo"]) for e in then if e["type"] == "WORKS_AT"] == [
        (acme["id"], "2023-09-01T10:00:00Z")
    ]


class TypedExtractor:
    """Types each text's one name as given, so that the test decides what the model guessed."""

    def __init__(self, typed: dict[str, tuple[EntityType, str]]) -> None:
        self.typed = typed

    def extract_many(self, turns: Sequence[Turn], batch_size: int = 64) -> list[Extraction]:
        out = []
        for turn in turns:
            entity_type, source = self.typed[turn.text]
            start = turn.text.index(NAME)
            mention = Mention(NAME, start, start + len(NAME), entity_type, None, source, sentence=0)
            out.append(Extraction((Sentence(0, len(turn.text), turn.text),), (mention,), (), ()))
        return out


NAME = "Korvath"
GUESSES = {
    "We drove past Korvath.": (EntityType.PLACE, "ner"),
    "Korvath Systems sent the invoice, said Korvath.": (EntityType.ORGANIZATION, "designator"),
    "Korvath was mentioned again.": (EntityType.PLACE, "ner"),
}


def test_the_type_vote_decides_an_entity_type_whatever_the_order(gql: GraphQLClient, runtime: Runtime) -> None:
    typed = replace(runtime, extractor=TypedExtractor(GUESSES), derive_pool=None)
    outcomes = []
    place_first, place_again, organization = list(GUESSES)[0], list(GUESSES)[2], list(GUESSES)[1]
    for order in ([place_first, organization, place_again], [place_first, place_again, organization]):
        namespace = f"t-{uuid.uuid4().hex[:16]}"
        types_seen = []
        for text in order:
            gql.data("capture", input={"namespace": namespace, "content": text})
            assert consolidate(typed, namespace=namespace).processed == 1  # one episode at a time
            types_seen.append(entity_named(gql, namespace, NAME)["type"])
        outcomes.append((types_seen, census(runtime, namespace)))
    (one, one_census), (other, other_census) = outcomes
    # One weak guess does not fix the type: the first mention's place gives way to the designator
    # (weight 3 against 1, then 3 against 2), and two places first do not outvote it either.
    assert one == ["place", "organization", "organization"]
    assert other == ["place", "place", "organization"]
    assert one_census == other_census and one_census["Entity"] == 1
