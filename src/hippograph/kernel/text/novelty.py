"""Whether a text close to a stored one says anything the stored one does not (docs/memory-management.md,
Near-duplicates).

Embeddings say two texts are about the same thing, not that they say the same about it: "we paid
40 dollars" and "we paid 60 dollars" lie closer together than most paraphrases. So closeness only
proposes a merge; the words decide it. Each text is reduced to a signature: its content words'
stems, its anchors (numbers, names, dates, pronouns' persons, words that take one side of an
opposition; ``extract/novelty.toml``) and how many negation cues it holds. A text whose anchors or
negations differ from the stored one's is never merged with it, however close; one that adds words
or anchors extends it; one whose words and anchors the stored one already holds adds nothing.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from hippograph.kernel.lucene import stopwords
from hippograph.kernel.resources import read_text
from hippograph.kernel.text.stems import stems

# A word with its contraction ("didn't"), or a number with its separators ("1,200", "3.5", "10:30").
_TOKEN = re.compile(r"\d+(?:[.,:/]\d+)*|[^\W\d_]+(?:['’][^\W\d_]+)?", re.UNICODE)
# Where a sentence (or a speaker's turn, "Caroline: ...") starts: its first word is capitalized
# whether or not it is a name.
_SENTENCE_START = re.compile(r"(?:^|[.!?:;\"“]\s+|\n)\s*$")


class Overlap(StrEnum):
    """What a new text is to a stored one close to it."""

    DUPLICATE = "DUPLICATE"  # says the same: the stored one stands for it
    SUBSUMED = "SUBSUMED"  # says part of what the stored one says, nothing else
    EXTENDS = "EXTENDS"  # says what the stored one says and more
    DISTINCT = "DISTINCT"  # says something else: a changed number, name, date or negation, or too far


@dataclass(frozen=True)
class Tiers:
    """The cosines that make a new text a semantic duplicate, or a near-duplicate, of a stored one."""

    semantic: float
    near: float


@dataclass(frozen=True)
class Signature:
    words: frozenset[str]  # content words' stems
    anchors: frozenset[str]  # kind-prefixed: "n:40", "d:monday", "p:caroline", "c:disabled", "s:she"
    negations: int


@dataclass(frozen=True)
class _Vocabulary:
    negations: frozenset[str]
    numbers: dict[str, str]
    dates: frozenset[str]
    date_abbreviations: dict[str, str]
    contrasts: frozenset[str]
    persons: dict[str, str]
    given_names: frozenset[str]


@cache
def _vocabulary() -> _Vocabulary:
    data = tomllib.loads(read_text("extract/novelty.toml"))
    return _Vocabulary(
        negations=frozenset(data["negations"]),
        numbers=dict(data["numbers"]),
        dates=frozenset(data["dates"]["words"]),
        date_abbreviations=dict(data["dates"]["abbreviations"]),
        contrasts=frozenset(data["contrasts"]["words"]),
        persons=dict(data["persons"]),
        given_names=frozenset(
            line.strip().casefold()
            for line in read_text("extract/given_names.txt").splitlines()
            if line.strip() and not line.startswith("#")
        ),
    )


def signature(text: str) -> Signature:
    vocabulary = _vocabulary()
    words: list[str] = []
    anchors: set[str] = set()
    negations = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        lower = token.casefold().replace("’", "'")
        if token[0].isdigit():
            anchors.add("n:" + token.replace(",", ""))
            continue
        if lower.endswith("n't"):
            negations += 1
            lower = lower[:-3]
        if anchor := _anchor(vocabulary, lower):
            anchors.add(anchor)
        elif lower in vocabulary.negations:
            negations += 1
        elif _is_name(vocabulary, token, lower, text[: match.start()]):
            anchors.add("p:" + lower)
        elif lower not in stopwords() and lower:
            words.append(lower)
    return Signature(frozenset(stems(" ".join(words)).split()), frozenset(anchors), negations)


def _is_name(vocabulary: _Vocabulary, token: str, lower: str, before: str) -> bool:
    """A capitalized word is a name inside a sentence; at its start, only a known given name is."""
    if not token[0].isupper():
        return False
    return lower in vocabulary.given_names or not _SENTENCE_START.search(before)


def _anchor(vocabulary: _Vocabulary, lower: str) -> str | None:
    if lower in vocabulary.numbers:
        return "n:" + vocabulary.numbers[lower]
    if lower in vocabulary.dates:
        return "d:" + lower
    if lower in vocabulary.date_abbreviations:
        return "d:" + vocabulary.date_abbreviations[lower]
    if lower in vocabulary.persons:
        return "s:" + vocabulary.persons[lower]
    if lower in vocabulary.contrasts:
        return "c:" + lower
    return None


def compare(new: Signature, stored: Signature, cosine: float, tiers: Tiers) -> Overlap:
    """What ``new`` is to ``stored``, given their embeddings' cosine.

    Anchors gained and lost at once mean a value was replaced, and a different count of negations
    a claim reversed: both are DISTINCT at any cosine, because a merge would lose the new value.
    A paraphrase replaces words; a text that adds more words than it replaces says more, so it is
    no duplicate however close.
    """
    if cosine < tiers.near or new.negations != stored.negations:
        return Overlap.DISTINCT
    gained = new.anchors - stored.anchors
    lost = stored.anchors - new.anchors
    if gained and lost:
        return Overlap.DISTINCT
    added = new.words - stored.words
    if not gained and not lost and cosine >= tiers.semantic and len(added) <= len(stored.words - new.words):
        return Overlap.DUPLICATE
    if not gained and not added:
        return Overlap.SUBSUMED
    return Overlap.EXTENDS
