"""What extraction finds in one text. Offsets are character offsets into that text."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum


class EntityType(StrEnum):
    PERSON = "person"
    ORGANIZATION = "organization"
    PLACE = "place"
    PRODUCT = "product"  # products and technologies
    EVENT = "event"
    CONCEPT = "concept"
    PROJECT = "project"
    DOMAIN = "domain"
    AGENT = "agent"
    OTHER = "other"


@dataclass(frozen=True)
class Mention:
    """A span that names an entity."""

    text: str
    start: int
    end: int
    type: EntityType
    # The dictionary's canonical name when one knows this surface form ("nextjs" -> "Next.js").
    canonical: str | None
    # Which rule found it: "ner", "ruler", "alias", "regex:domain", "regex:url", "regex:handle",
    # "regex:quoted", "regex:capitalized", "speaker", "relation" (an object a relation rule named),
    # "designator" (typed by its own designator: "Globex Corporation"), "argument" (typed or found
    # by the relation slot it fills: "works at X"), "given_name" (a single word the model called an
    # organization, a person by the given-name list), "query:capitalized" (a capitalized word of a
    # recall query, to look up). Consolidation's type vote weighs a mention by it.
    source: str
    # "speaker" for the speaking person/agent of a conversation turn, else "mentioned".
    role: str = "mentioned"
    # Index of the sentence it lies in (Extraction.sentences); -1 for the speaker, who is in all.
    sentence: int = -1

    @property
    def name(self) -> str:
        return self.canonical or self.text


@dataclass(frozen=True)
class Relation:
    """A typed edge between two mentions, stated in one sentence."""

    subject: int  # index into Extraction.mentions
    predicate: str  # a type of the closed vocabulary in extract/relations.toml, e.g. "LIVES_IN"
    object: int
    confidence: float  # 0..1
    negated: bool  # "I don't live in Boston"
    sentence: int


class Precision(StrEnum):
    """How precisely a text placed something in time."""

    DAY = "day"
    WEEK = "week"
    MONTH = "month"
    SEASON = "season"
    YEAR = "year"


@dataclass(frozen=True)
class When:
    """What a sentence says of its statement's valid time (extraction/when.py). ``start`` None: not
    said (the episode's time stands in); ``end`` the end of the period it names or the end it
    gives; ``bounded`` whether the text gives that end ("until", "for", "from ... to") rather than
    only the period an event took place in ("last spring" dates a move, it does not end the home)."""

    start: datetime | None
    end: datetime | None
    precision: Precision
    bounded: bool
    text: str


@dataclass(frozen=True)
class FactCandidate:
    """A sentence worth keeping as a Fact: it carries a relation, a preference, a decision, a
    status or a self-statement."""

    statement: str  # the sentence, first person resolved to the speaker ("Caroline moved to Boston.")
    kind: str  # fact, preference, decision, procedure, status, identity, task, event
    sentence: int
    confidence: float
    subject: int | None = None  # mention indexes, when the sentence names them
    object: int | None = None
    predicate: str | None = None  # a relation type, or a lemma for non-relational facts ("prefer")
    negated: bool = False
    # The polarity-bearing word for contradiction checks ("enabled"/"disabled", "allow"/"deny").
    polarity: str | None = None
    # The keys of the text's concepts its sentence mentions (Extraction.concepts, so the same
    # cap holds): what the fact is about besides its entities.
    concepts: tuple[str, ...] = ()
    # When its sentence says it held ("last spring", "since March"), resolved against the turn's
    # time; None where it says nothing of it, or the turn has no time.
    when: When | None = None


@dataclass(frozen=True)
class Sentence:
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Concept:
    """A common-noun phrase the text is about (extraction/concepts.py): not a name, a topic."""

    key: str  # lowercase lemmas, the node's identity within a namespace ("pottery class")
    text: str  # as written the first time ("pottery classes")
    start: int
    end: int
    sentence: int


@dataclass(frozen=True)
class Extraction:
    sentences: tuple[Sentence, ...]
    mentions: tuple[Mention, ...]
    relations: tuple[Relation, ...]
    facts: tuple[FactCandidate, ...]
    concepts: tuple[Concept, ...] = ()

    def cooccurrences(self) -> list[tuple[int, int]]:
        """Pairs of mention indexes named in the same sentence (the speaker pairs with none)."""
        pairs = []
        for i, a in enumerate(self.mentions):
            for j in range(i + 1, len(self.mentions)):
                b = self.mentions[j]
                if a.sentence >= 0 and a.sentence == b.sentence and a.name != b.name:
                    pairs.append((i, j))
        return pairs


@dataclass(frozen=True)
class Turn:
    """A text to extract from, and who said it when it is a conversation turn."""

    text: str
    speaker: str | None = None
    speaker_type: EntityType = EntityType.PERSON
    # When it was said (the episode's occurredAt): what "yesterday" and "last spring" count from.
    said_at: datetime | None = None

    def body(self) -> tuple[str, int]:
        """The text without a leading "Speaker: " label, and where it starts: the label is
        attribution, not content, and it misleads the parser ("Caroline" becomes the root)."""
        if self.speaker:
            label = f"{self.speaker}:"
            if self.text.startswith(label):
                body = self.text[len(label) :].lstrip()
                return body, len(self.text) - len(body)
        return self.text, 0
