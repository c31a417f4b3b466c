"""The fact rule file, ``extract/fact_kinds.toml``, compiled: the cues as one token Matcher, and
the word lists and confidences the fact rules look up."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from spacy.matcher import Matcher
from spacy.vocab import Vocab

from hippograph.extraction.lexicons import expand
from hippograph.extraction.relation_settings import lexicon
from hippograph.kernel.rules import load_rules


@dataclass(frozen=True, slots=True)
class Cue:
    kind: str
    confidence: float
    subject: str | None  # "conduct", "thing" or no condition


@dataclass(frozen=True, slots=True)
class Settings:
    statement_confidence: float
    event_confidence: float
    empty: frozenset[str]
    light_verbs: frozenset[str]
    conduct_subjects: frozenset[str]
    temporal: frozenset[str]
    future: frozenset[str]
    future_auxiliaries: frozenset[str]
    habitual: frozenset[str]
    relation_kinds: Mapping[str, str]
    pronouns: Mapping[str, str]
    verbs: Mapping[str, str]


@cache
def matcher(vocab: Vocab) -> Matcher:
    """One pattern list per cue, named by the cue's number in file order (its precedence)."""
    found = Matcher(vocab, validate=True)
    data = load_rules("fact_kinds")
    for number, cue in enumerate(data["cues"]):
        found.add(str(number), [[_expand(token) for token in pattern] for pattern in cue["patterns"]])
    return found


@cache
def cues() -> tuple[Cue, ...]:
    return tuple(Cue(cue["kind"], cue["confidence"], cue.get("subject")) for cue in load_rules("fact_kinds")["cues"])


def _expand(value: Any) -> Any:
    """A token pattern with each "@name" (an IN list, or an entry of one) replaced by that lexicon."""
    if isinstance(value, dict):
        return {key: _expand(item) for key, item in value.items()}
    if isinstance(value, str) and value.startswith("@"):
        return expand([value], _lexicon)
    if isinstance(value, list):
        return expand(value, _lexicon)
    return value


def _lexicon(name: str) -> list[str]:
    """A [lexicons] list of fact_kinds.toml, lowercased, else one of relation_patterns."""
    own = _own_lexicons().get(name)
    if own is None:
        return sorted(lexicon(name))
    return [entry if entry.startswith("@") else entry.lower() for entry in own]


@cache
def _own_lexicons() -> dict[str, list[str]]:
    return dict(load_rules("fact_kinds")["lexicons"])


@cache
def settings() -> Settings:
    data = load_rules("fact_kinds")
    event, words = data["event"], data["words"]
    return Settings(
        statement_confidence=data["confidence"]["statement"],
        event_confidence=data["confidence"]["event"],
        empty=frozenset(words["empty"]),
        light_verbs=frozenset(words["light_verbs"]),
        conduct_subjects=frozenset(words["conduct_subjects"]),
        temporal=frozenset(event["temporal"]),
        future=frozenset(event["future"]),
        future_auxiliaries=frozenset(event["future_auxiliaries"]),
        habitual=frozenset(event["habitual"]),
        relation_kinds=dict(data["relations"]),
        pronouns=dict(data["statement"]["pronouns"]),
        verbs=dict(data["statement"]["verbs"]),
    )
