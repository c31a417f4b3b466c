"""What a name's own words say about its type (``extract/entity_types.toml``): organization
designators ("Globex Corporation", "Sakura Bank", "University of Edinburgh"), place head nouns
("Prospect Park"), and the determiners a model span takes along ("the Red Cross").

The statistical model types a name by its context and spelling as seen in news text; a designator
is a convention of the name itself, so it holds in any register. These rules only ever decide
between the entity types, and never for the curated dictionary's spans.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from spacy.tokens import Span

from hippograph.kernel.rules import load_rules

DESIGNATOR = "designator"  # Mention.source of a name whose designator decided its type


@dataclass(frozen=True, slots=True)
class Designators:
    legal: frozenset[str]
    heads: frozenset[str]
    of_heads: tuple[tuple[str, ...], ...]  # word sequences before "of"
    place_heads: frozenset[str]
    leading: frozenset[str]
    sentence_initial: frozenset[str]
    never_inside: frozenset[str]
    never_alone: frozenset[str]


@cache
def designators() -> Designators:
    data = load_rules("entity_types")
    organization = data["organization"]
    return Designators(
        legal=frozenset(organization["legal"]),
        heads=frozenset(organization["heads"]),
        of_heads=tuple(tuple(entry.split()) for entry in organization["of_heads"]),
        place_heads=frozenset(data["place"]["heads"]),
        leading=frozenset(data["span"]["leading"]),
        sentence_initial=frozenset(data["span"]["sentence_initial"]),
        never_inside=frozenset(data["span"]["never_inside"]),
        never_alone=frozenset(data["span"]["never_alone"]),
    )


def trim(span: Span) -> Span | None:
    """``span`` without the determiners in front of the name ("the University of Arizona"); None
    when it is no name at all: it holds a handle's "@" or a hashtag's "#", follows a "#" (is a hashtag), or is a
    chat abbreviation or technical acronym alone ("LOL", "DM", "IP")."""
    rules = designators()
    doc = span.doc
    if any(token.text in rules.never_inside for token in span) or (span.start > 0 and doc[span.start - 1].text == "#"):
        return None
    if len(span) == 1 and span.text.upper() in rules.never_alone:
        return None
    start = span.start
    while start < span.end - 1:
        token = span.doc[start]
        if token.text in rules.leading or (token.is_sent_start and token.text in rules.sentence_initial):
            start += 1
        else:
            break
    return span.doc[start : span.end]


def extend(span: Span) -> Span:
    """``span`` with a legal designator that directly follows it ("Veridian Capital Partners" +
    "LLC"), which the model often leaves out."""
    doc = span.doc
    if span.end < len(doc) and doc[span.end - 1].whitespace_ and doc[span.end].text in designators().legal:
        return doc[span.start : span.end + 1]
    return span


def organization_evidence(words: list[str]) -> bool:
    """Whether a name's words say it is an organization: a legal designator last, an organization
    head noun last in a name of two or more words, or "University of ..." and the like."""
    if not words:
        return False
    rules = designators()
    last = words[-1]
    if last in rules.legal and len(words) > 1:
        return True
    if len(words) > 1 and last in rules.heads:
        return True
    return any(
        len(words) > len(head) + 1 and tuple(words[: len(head)]) == head and words[len(head)] == "of"
        for head in rules.of_heads
    )


def place_evidence(words: list[str]) -> bool:
    """Whether a name's last word names a kind of place ("Prospect Park", "Dalton Street")."""
    return len(words) > 1 and words[-1] in designators().place_heads


def names_organization(words: list[str]) -> bool:
    """Whether a name's own words make it an organization. A legal designator outweighs a place
    head ("Harbour Point Properties Ltd"); a head noun does not ("Bank Street")."""
    if len(words) > 1 and words[-1] in designators().legal:
        return True
    return organization_evidence(words) and not place_evidence(words)
