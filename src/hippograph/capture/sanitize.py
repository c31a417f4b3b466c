"""Capture step 2: excise prompt-injection markers before content is stored.

Recall pastes stored content into agents' prompts, so chat-template control tokens, Hippograph's own
bundle tags and "ignore previous instructions"-style lines are cut out here (``extract/injection.toml``).
This only cleans and reports; deciding whether what is left is worth storing is the caller's job.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from hippograph.rules import load_rules


@dataclass(frozen=True, slots=True)
class Sanitized:
    """The cleaned text and the distinct kinds of marker removed (``"token:<|im_start|>"``,
    ``"tag:recalled-memory-context"``, ``"line:ignore_previous_instructions"``), first seen first."""

    text: str
    excised: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Rules:
    """``markers`` holds every token and bundle tag as one alternation, each alternative a capture
    group with none inside; group i is labelled ``marker_labels[i - 1]``."""

    markers: re.Pattern[str]
    marker_labels: tuple[str, ...]
    lines: tuple[tuple[str, re.Pattern[str]], ...]


def excise_injections(text: str) -> Sanitized:
    rules = _rules()
    excised: list[str] = []
    # Removing one marker can join the halves of another ("<|im_<|im_end|>start|>"), so repeat until
    # a pass removes nothing. Each pass that changes the text shortens it, so this ends.
    while True:
        stripped, token_hits = _strip_markers(rules, text)
        cleaned, line_hits = _drop_lines(rules, stripped)
        excised += token_hits + line_hits
        if cleaned == text:
            return Sanitized(text, tuple(dict.fromkeys(excised)))
        text = cleaned


def _strip_markers(rules: _Rules, text: str) -> tuple[str, list[str]]:
    found: list[str] = []

    def excise(match: re.Match[str]) -> str:
        found.append(_label(rules, match))
        return ""

    return rules.markers.sub(excise, text), found


def _label(rules: _Rules, match: re.Match[str]) -> str:
    assert match.lastindex is not None  # every alternative is a group, so one of them matched
    return rules.marker_labels[match.lastindex - 1]


def _drop_lines(rules: _Rules, text: str) -> tuple[str, list[str]]:
    kept: list[str] = []
    found: list[str] = []
    for line in text.splitlines(keepends=True):
        name = next((name for name, pattern in rules.lines if pattern.search(line)), None)
        if name is None:
            kept.append(line)
        else:
            found.append(f"line:{name}")
    return "".join(kept), found


@cache
def _rules() -> _Rules:
    data = load_rules("injection")
    # Longest first, so a token that is a prefix of another never wins the alternation.
    tokens: list[str] = sorted(data["tokens"], key=len, reverse=True)
    tags: list[str] = data["tags"]
    alternatives = [re.escape(token) for token in tokens] + [_tag_pattern(tag) for tag in tags]
    labels = [f"token:{token}" for token in tokens] + [f"tag:{tag}" for tag in tags]
    # Every marker opens with one of a few characters; testing that first lets the engine pass over
    # ordinary text instead of trying each alternative at every position (about 50 times faster).
    openers = re.escape("".join(sorted({token[0] for token in tokens} | {"<"})))
    alternation = "|".join(f"({alternative})" for alternative in alternatives)
    return _Rules(
        markers=re.compile(f"(?=[{openers}])(?:{alternation})", re.IGNORECASE),
        marker_labels=tuple(labels),
        lines=tuple((rule["name"], re.compile(rule["pattern"], re.IGNORECASE)) for rule in data["line_patterns"]),
    )


def _tag_pattern(name: str) -> str:
    """Opening (any attributes), closing or self-closing ``name`` tag; the lookahead stops at the
    end of the name, so a longer tag name merely starting with it is not taken."""
    return rf"<\s*/?\s*{re.escape(name)}(?=[\s/>])[^<>]*>"
