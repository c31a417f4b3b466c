"""Capture step 3: credentials of known shapes become ``[REDACTED:<kind>]`` before anything is stored.

The rules live in ``extract/credentials.toml`` and run in file order, each over the text the earlier
ones left. Markers are opaque: a rule only ever sees the stretches of text between them, so
``password=[REDACTED:openai_key]`` stays as it is and scrubbing scrubbed text changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, partial
from typing import Any

from hippograph.kernel.model import Redaction
from hippograph.kernel.rules import load_rules

_KIND = re.compile(r"[a-z0-9_]+")
# Capturing, so that split() keeps the markers between the stretches it returns.
_MARKER = re.compile(rf"(\[REDACTED:{_KIND.pattern}\])")


@dataclass(frozen=True, slots=True)
class Scrubbed:
    """The scrubbed text and one ``Redaction`` per kind found, in the order the rules ran."""

    text: str
    redactions: tuple[Redaction, ...]


@dataclass(frozen=True, slots=True)
class _Rule:
    kind: str
    pattern: re.Pattern[str]
    group: int


def scrub_credentials(text: str) -> Scrubbed:
    counts: dict[str, int] = {}
    for rule in _rules():
        text, hits = _apply(rule, text)
        if hits:
            counts[rule.kind] = counts.get(rule.kind, 0) + hits
    return Scrubbed(text, tuple(Redaction(kind, count) for kind, count in counts.items()))


def marker(kind: str) -> str:
    return f"[REDACTED:{kind}]"


def _apply(rule: _Rule, text: str) -> tuple[str, int]:
    """The text with ``rule`` applied between existing markers, and how many secrets it replaced."""
    pieces = _MARKER.split(text)
    hits = 0
    for index in range(0, len(pieces), 2):  # odd indexes hold the markers themselves
        pieces[index], found = rule.pattern.subn(partial(_redact, rule), pieces[index])
        hits += found
    return "".join(pieces), hits


def _redact(rule: _Rule, match: re.Match[str]) -> str:
    """The match with only the rule's secret group replaced, so its context stays readable."""
    start, end = match.span(rule.group)
    whole, offset = match.group(0), match.start()
    return whole[: start - offset] + marker(rule.kind) + whole[end - offset :]


@cache
def _rules() -> tuple[_Rule, ...]:
    return tuple(_compile(rule) for rule in load_rules("credentials")["rules"])


def _compile(rule: dict[str, Any]) -> _Rule:
    kind: str = rule["kind"]
    # A kind the marker pattern cannot recognise would leave its markers open to later rules.
    if not _KIND.fullmatch(kind):
        raise ValueError(f"credential rule kind {kind!r} must be lowercase letters, digits and _")
    pattern = re.compile(rule["pattern"], _flags(rule.get("flags", ())))
    return _Rule(kind, pattern, rule.get("group", 0))


def _flags(names: Iterable[str]) -> re.RegexFlag:
    combined = re.NOFLAG
    for name in names:
        combined |= re.RegexFlag[name]
    return combined
