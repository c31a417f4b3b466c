"""The tables of ``extract/relation_patterns.toml`` other than shapes and rules, as the sets and
factors the clause grammar, coreference and type checks look words up in."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from hippograph.extraction.relation_schema import relation_file


@dataclass(frozen=True, slots=True)
class Settings:
    near_type: float
    unknown_type: float
    future: float
    hedged: float
    pronoun: float
    near: frozenset[frozenset[str]]
    unknown: frozenset[str]
    first_person: frozenset[str]
    relative: frozenset[str]
    third_person: frozenset[str]
    blocking_modals: frozenset[str]
    future_modals: frozenset[str]
    conditional_marks: frozenset[str]
    hedge_verbs: frozenset[str]
    hedge_adverbs: frozenset[str]
    former_modifiers: frozenset[str]
    hyphen_prefixes: frozenset[str]
    matrix: Mapping[str, str]
    stop: frozenset[str]
    skip_modifiers: frozenset[str]
    never_labels: frozenset[str]
    lexicons: Mapping[str, tuple[str, ...]]


@cache
def settings() -> Settings:
    data = relation_file()
    confidence, clause, mint, types = data.confidence, data.clause, data.mint, data.types

    def lowered(words: list[str]) -> frozenset[str]:
        return frozenset(word.lower() for word in words)

    return Settings(
        near_type=confidence.near_type,
        unknown_type=confidence.unknown_type,
        future=confidence.future,
        hedged=confidence.hedged,
        pronoun=confidence.pronoun,
        near=frozenset(frozenset(kind.value for kind in pair) for pair in types.near),
        unknown=frozenset(kind.value for kind in types.unknown),
        first_person=lowered(clause.first_person),
        relative=lowered(clause.relative),
        third_person=lowered(clause.third_person),
        blocking_modals=lowered(clause.blocking_modals),
        future_modals=lowered(clause.future_modals),
        conditional_marks=lowered(clause.conditional_marks),
        hedge_verbs=lowered(clause.hedge_verbs),
        hedge_adverbs=lowered(clause.hedge_adverbs),
        former_modifiers=lowered(clause.former_modifiers),
        hyphen_prefixes=lowered(clause.hyphen_prefixes),
        matrix=dict(clause.matrix),
        stop=frozenset(mint.stop),
        skip_modifiers=frozenset(mint.skip_modifiers),
        never_labels=frozenset(mint.never_labels),
        lexicons={name: tuple(entries) for name, entries in data.lexicons.items()},
    )


@cache
def lexicon(name: str) -> frozenset[str]:
    """A word list of relation_patterns.toml, lowercased."""
    return frozenset(word.lower() for word in settings().lexicons[name])
