"""Which regex entity candidates are not names: log lines, headings, code, CSS, dates and prose.

The rules live in ``extract/junk.toml``. ``junk_reason`` names the first rule a phrase breaks, so
tests and debugging can tell *why* a candidate was dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from hippograph.kernel.rules import load_rules

# Punctuation that may hug a word without being part of it ("(Acme", "Robotics,", "'Bridge'").
_EDGE_PUNCTUATION = "\"'“”‘’`.,;:!?()[]{}"


@dataclass(frozen=True, slots=True)
class _Rules:
    min_chars: int
    max_chars: int
    max_words: int
    prose_share: float
    patterns: tuple[tuple[str, re.Pattern[str]], ...]
    action_verbs: frozenset[str]
    noise_words: frozenset[str]
    time_words: frozenset[str]
    css_words: frozenset[str]
    generic_tail_words: frozenset[str]
    prose_words: frozenset[str]
    leading_noise: frozenset[str]


def is_junk(phrase: str) -> bool:
    return junk_reason(phrase) is not None


def junk_reason(phrase: str) -> str | None:
    """The name of the first junk rule ``phrase`` breaks, or None when it may be a name."""
    rules = _rules()
    phrase = phrase.strip()
    if not rules.min_chars <= len(phrase) <= rules.max_chars:
        return "length"
    for reason, pattern in rules.patterns:
        if pattern.search(phrase):
            return reason
    words = _words(phrase)
    if len(words) > rules.max_words:
        return "length"
    return _word_reason(rules, words)


def strip_leading_noise(phrase: str) -> str:
    """``phrase`` without the words in front that open sentences rather than names: determiners,
    greetings, time words, action verbs and common prose words. A sentence's first word is
    capitalized whatever it is, so "Yesterday Acme Robotics" and "Bye Nate Smith" hold the names
    "Acme Robotics" and "Nate Smith". Mid-sentence the same stripping rarely costs a name ("Will
    Smith"), and there the statistical NER's span usually wins anyway."""
    leading = _rules().leading_noise
    rest = phrase
    while rest:
        head, _, tail = rest.partition(" ")
        if _word(head) not in leading:
            break
        rest = tail.lstrip(" ")
    return rest


def _word_reason(rules: _Rules, words: list[str]) -> str | None:
    if not words:
        return "no_letters"
    if words[0] in rules.action_verbs:
        return "action_verb"
    if words[0] in rules.noise_words:
        return "noise_word"
    if any(word in rules.time_words for word in words):
        return "time_word"
    if all(word in rules.css_words for word in words):
        return "css"
    if words[-1] in rules.generic_tail_words:
        return "generic_tail"
    if sum(word in rules.prose_words for word in words) > rules.prose_share * len(words):
        return "prose"
    return None


def _words(phrase: str) -> list[str]:
    return [word for word in map(_word, phrase.split()) if word]


def _word(token: str) -> str:
    return token.strip(_EDGE_PUNCTUATION).lower()


@cache
def _rules() -> _Rules:
    rules = load_rules("junk")
    words = {name: frozenset(values) for name, values in rules["words"].items()}
    return _Rules(
        min_chars=rules["min_chars"],
        max_chars=rules["max_chars"],
        max_words=rules["max_words"],
        prose_share=rules["prose_share"],
        patterns=tuple((reason, re.compile(pattern)) for reason, pattern in rules["patterns"].items()),
        action_verbs=words["action_verbs"],
        noise_words=words["noise_words"],
        time_words=words["time_words"],
        css_words=words["css_words"],
        generic_tail_words=words["generic_tail_words"],
        prose_words=words["noise_words"] | words["common_words"],
        leading_noise=words["action_verbs"] | words["noise_words"] | words["time_words"] | words["common_words"],
    )
