"""Regex entity rules: URLs, domains, @handles, quoted names and Capitalized Multi-Word Phrases.

The rules live in ``extract/entity_patterns.toml``; what each kind of rule does with its match
(canonical form, junk filter) is here. Candidates may overlap: ``find_mentions`` settles overlaps
among them and with the Doc's entity spans, an earlier rule winning over a later one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any
from urllib.parse import urlsplit

from hippograph.extraction.junk import is_junk, strip_leading_noise
from hippograph.extraction.model import EntityType, Mention
from hippograph.kernel.rules import load_rules


@dataclass(frozen=True, slots=True)
class Candidate:
    """A mention a regex rule found (its ``sentence`` still unset), whether it wins over a
    statistical-NER span it overlaps (``over_ner`` in the rules file), and its rule's position in
    the file: where candidates overlap, the earlier rule wins."""

    mention: Mention
    over_ner: bool
    order: int


@dataclass(frozen=True, slots=True)
class _Rule:
    kind: str
    type: EntityType
    pattern: re.Pattern[str]
    over_ner: bool
    min_words: int


def find_candidates(text: str) -> list[Candidate]:
    """Every regex mention in ``text``, in rule order."""
    return [
        Candidate(mention, rule.over_ner, order)
        for order, rule in enumerate(_rules())
        for mention in _mentions(rule, text)
    ]


def _mentions(rule: _Rule, text: str) -> Iterator[Mention]:
    namer = _NAMERS[rule.kind]
    for match in rule.pattern.finditer(text):
        mention = namer(rule, match)
        if mention is not None:
            yield mention


def _url(rule: _Rule, match: re.Match[str]) -> Mention | None:
    try:
        host = urlsplit(match.group()).hostname
    except ValueError:  # a malformed port or IPv6 literal: no host to name
        return None
    return _mention(rule, match.group(), match.start(), "regex:url", _host(host)) if host else None


def _domain(rule: _Rule, match: re.Match[str]) -> Mention:
    return _mention(rule, match.group(), match.start(), "regex:domain", _host(match.group()))


def _handle(rule: _Rule, match: re.Match[str]) -> Mention:
    return _mention(rule, match.group(), match.start(), "regex:handle", "@" + match["name"].lower())


def _quoted(rule: _Rule, match: re.Match[str]) -> Mention | None:
    name = match["name"]
    return None if is_junk(name) else _mention(rule, name, match.start("name"), "regex:quoted", None)


def _capitalized(rule: _Rule, match: re.Match[str]) -> Mention | None:
    phrase = match.group()
    name = strip_leading_noise(phrase)
    if len(name.split()) < rule.min_words or is_junk(name):
        return None
    return _mention(rule, name, match.start() + len(phrase) - len(name), "regex:capitalized", None)


def _mention(rule: _Rule, text: str, start: int, source: str, canonical: str | None) -> Mention:
    return Mention(text=text, start=start, end=start + len(text), type=rule.type, canonical=canonical, source=source)


def _host(host: str) -> str:
    return host.lower().removeprefix("www.")


_NAMERS: dict[str, Callable[[_Rule, re.Match[str]], Mention | None]] = {
    "url": _url,
    "domain": _domain,
    "handle": _handle,
    "quoted": _quoted,
    "capitalized": _capitalized,
}


@cache
def _rules() -> tuple[_Rule, ...]:
    rules = load_rules("entity_patterns")
    tld = "|".join(map(re.escape, rules["tlds"]))
    return tuple(_compile(rule, tld) for rule in rules["rules"])


def _compile(rule: dict[str, Any], tld: str) -> _Rule:
    kind: str = rule["kind"]
    if kind not in _NAMERS:
        raise ValueError(f"entity_patterns.toml: unknown rule kind {kind!r} (known: {sorted(_NAMERS)})")
    pattern = re.compile(rule["pattern"].replace("{tld}", tld))
    return _Rule(kind, EntityType(rule["type"]), pattern, rule["over_ner"], rule.get("min_words", 1))
