"""What the slot of a relation rule says about the mention that fills it.

Two pieces of evidence the statistical model does not use:

* **Argument types.** A rule may declare the type its subject or object must have (``subject_is``,
  ``object_is`` in ``extract/relation_patterns.toml``): the object of "works at" is an
  organization, the subject of "lives in" a person. A mention the model typed as one of the types
  it confuses with the slot's ([types].near and [types].unknown there: "Globex Corporation" as a
  place, "Ingrid" as a place) takes the slot's type, unless its own words say otherwise (a place
  head in an organization slot, "Prospect Park"; a designator in any other, "Vireo Labs") or it
  comes from the curated dictionary or a designator. An uncovered proper noun in such a slot
  ("Paulo lives in Lisbon", the model having found no name) becomes a mention of the slot's type.
* **Named parts.** A common noun phrase whose head names a part of a system or of an organization
  ([parts] there: "the billing service", "the platform team") names one particular thing in
  engineering notes, so it becomes a mention (a product or an organization) when it fills a slot
  that takes that type. Only with a naming modifier: "the service" alone names nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from spacy.tokens import Token

from hippograph.extraction import designators
from hippograph.extraction.model import EntityType, Mention
from hippograph.extraction.model_types import GIVEN_NAME
from hippograph.extraction.relation_schema import relation_file
from hippograph.extraction.relation_settings import settings

ARGUMENT = "argument"  # Mention.source of a mention typed (or found) by its relation slot
# Sources whose type no slot overrides: the curated dictionary, a user's alias, a designator, the
# speaker, and the exact regex rules.
_FIRM_SOURCES = frozenset({"ruler", "alias", designators.DESIGNATOR, "speaker", "regex:url", "regex:domain"})


@dataclass(frozen=True, slots=True)
class _Slots:
    parts: tuple[tuple[frozenset[str], EntityType], ...]  # head words -> type
    unnamed_subject: EntityType | None


@cache
def _slots() -> _Slots:
    data = relation_file()
    return _Slots(
        parts=tuple(
            (frozenset(word.lower() for word in data.lexicons[name]), kind) for name, kind in data.parts.items()
        ),
        unnamed_subject=data.types.unnamed_subject,
    )


def slot_type(mention: Mention, wanted: EntityType | None) -> EntityType:
    """The type ``mention`` has in a slot that asks for ``wanted``."""
    if wanted is None or mention.type is wanted or mention.source in _FIRM_SOURCES:
        return mention.type
    known = settings()
    confusable = mention.type.value in known.unknown or frozenset((mention.type.value, wanted.value)) in known.near
    if wanted is EntityType.PERSON:
        # The model calls unfamiliar first names places and companies ("Ingrid", "Björn").
        confusable = mention.type in (EntityType.ORGANIZATION, EntityType.PLACE, EntityType.OTHER)
    if mention.source == GIVEN_NAME:
        # The given-name list overruled the model on the word alone; the slot is better evidence.
        confusable = True
    if not confusable or _contrary(mention.text.split(), wanted):
        return mention.type
    return wanted


def _contrary(words: list[str], wanted: EntityType) -> bool:
    if wanted is EntityType.ORGANIZATION:
        return designators.place_evidence(words) and not designators.names_organization(words)
    return designators.names_organization(words)


def may_name(token: Token) -> bool:
    """Whether an uncovered token may become a mention of its slot's type: a capitalized proper
    noun (never a pronoun, a common noun or a lowercase word)."""
    return token.pos_ == "PROPN" and token.is_title


def unnamed_type(token: Token, allowed: frozenset[str]) -> EntityType | None:
    """The type of an uncovered proper noun that is the subject of its clause, in a slot of no
    declared type that takes it ([types].unnamed_subject): the model knows most organizations
    and places of these registers by name and misses many first names ("Priya is working on ...")."""
    kind = _slots().unnamed_subject
    if kind is None or kind.value not in allowed or token.dep_ not in ("nsubj", "nsubjpass"):
        return None
    return kind


def part_type(head: Token, allowed: frozenset[str]) -> EntityType | None:
    """The type of the named part whose head is ``head`` ("service" -> product, "team" ->
    organization), when the slot takes it; None otherwise."""
    word = head.lemma_.lower()
    for words, kind in _slots().parts:
        if (word in words or head.lower_ in words) and kind.value in allowed:
            return kind
    return None
