"""Antonym pairs (``extract/polarity.toml``): which side of a pair a sentence states, for the
contradiction check between facts ("the cache is on" against "the cache is off")."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from hippograph.kernel.rules import load_rules

if TYPE_CHECKING:
    # Only the matching functions take parsed text; consolidation imports this module for
    # opposite_polarity and must not load spaCy for it.
    from spacy.tokens import Span, Token

# How a polarity word can hang on the predicate and still be what the sentence says about it.
_POLAR_PREDICATE_DEPS = ("acomp", "attr", "prt", "advmod")
_SUBORDINATE_DEPS = ("advcl", "relcl", "acl")
# Where a polarity word is no polarity: "on the team", "disabled users", "looks like rain".
_NOT_POLAR_DEPS = ("prep", "amod", "pobj")


@dataclass(frozen=True, slots=True)
class _Side:
    member: str
    label: str
    only: frozenset[str]  # dependency labels under which the word is polar; empty: any


@dataclass(frozen=True, slots=True)
class Polar:
    member: str  # the canonical side the sentence states, e.g. "disabled"
    label: str  # the pair, "enabled/disabled": a predicate both sides share
    token: Token


def opposite_polarity(member: str) -> str | None:
    """The other side of ``member``'s antonym pair ("enabled" -> "disabled"), None if it has none."""
    return _polarity()[1].get(member)


def find_polar(sentence: Span) -> Polar | None:
    """The polarity word that governs most of the sentence: the one nearest its root."""
    forms = _polarity()[0]
    found = []
    for token in sentence:
        if token.dep_ in _NOT_POLAR_DEPS or subordinate(token):
            continue
        if token.dep_ != "ROOT" and token.head.pos_ not in ("VERB", "AUX"):
            continue  # polarity is what a clause says: "signs off" as a noun says nothing
        side = forms.get(token.lower_) or forms.get(token.lemma_.lower())
        if side is not None and (not side.only or token.dep_ in side.only):
            found.append((_depth(token), token.i, Polar(side.member, side.label, token)))
    return min(found, key=lambda item: item[:2])[2] if found else None


def _depth(token: Token) -> int:
    depth = 0
    while token.head.i != token.i:
        token, depth = token.head, depth + 1
    return depth


def states_polarity(verb: Token, polar: Polar | None) -> bool:
    """Whether the predicate itself is one side of an antonym pair ("the cache is off", "guests are
    not allowed"): worth keeping, since a later statement of the other side contradicts it."""
    if polar is None:
        return False
    token = polar.token
    return token.i == verb.i or (token.head.i == verb.i and token.dep_ in _POLAR_PREDICATE_DEPS)


def subordinate(token: Token) -> bool:
    """Whether the token lies in an adverbial or relative clause: "... until legal signs off"
    neither decides anything nor sets the sentence's polarity."""
    while token.head.i != token.i:
        if token.dep_ in _SUBORDINATE_DEPS:
            return True
        token = token.head
    return False


@cache
def _polarity() -> tuple[dict[str, _Side], dict[str, str]]:
    """Word -> the side of a pair it states, and member -> its opposite."""
    forms: dict[str, _Side] = {}
    opposite: dict[str, str] = {}
    for pair in load_rules("polarity")["pairs"]:
        only = frozenset(pair.get("only", ()))
        members = {key: words for key, words in pair.items() if key != "only"}
        if len(members) != 2:
            raise ValueError(f"extract/polarity.toml: a pair has two members, not {sorted(members)}")
        first, second = members
        opposite |= {first: second, second: first}
        for member, words in members.items():
            for word in words:
                if word in forms:
                    raise ValueError(f"extract/polarity.toml lists {word!r} twice")
                forms[word] = _Side(member, f"{first}/{second}", only)
    return forms, opposite
