"""Capture step 2: excise prompt-injection markers before content is stored.

Recall pastes stored content into agents' prompts, so chat-template control tokens, Hippograph's own
bundle tags and "ignore previous instructions"-style sentences are cut out here
(``extract/injection.toml``). This only cleans and reports; deciding whether what is left is worth
storing is the caller's job.

Control tokens are matched as written: a tokenizer makes one only from its exact spelling. Tags and
instructions are read by meaning, so they are found on a *reading* of the text (entities decoded,
NFKC, invisible characters dropped, look-alike punctuation and letters as ASCII, case folded,
whitespace collapsed) and cut from the text as written: a tag with a zero-width space inside or
full-width brackets, an instruction with a Cyrillic letter in it or split over line breaks, goes
like the plain one. An instruction takes the sentence it is in (all of the lines it spans, if it
spans several), and the rest is stored as it was sent.
"""

from __future__ import annotations

import html
import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache

from confusable_homoglyphs.confusables import confusables_data

from hippograph.kernel.rules import load_rules


@dataclass(frozen=True, slots=True)
class Sanitized:
    """The cleaned text and the distinct kinds of marker removed (``"token:<|im_start|>"``,
    ``"tag:recalled-memory-context"``, ``"line:ignore_previous_instructions"``), first seen first."""

    text: str
    excised: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Rules:
    """``tokens`` and ``tags`` are alternations whose alternatives are each a capture group with none
    inside; group i is labelled ``token_labels[i - 1]`` (``tag_labels``)."""

    tokens: re.Pattern[str]
    token_labels: tuple[str, ...]
    tags: re.Pattern[str]
    tag_labels: tuple[str, ...]
    lines: tuple[tuple[str, re.Pattern[str]], ...]
    lookalikes: dict[str, str]
    letters: dict[str, str]
    invisible: re.Pattern[str]


@dataclass(frozen=True, slots=True)
class _Reading:
    """``text`` as a reader takes it in; its character i was read from ``source[starts[i]:ends[i]]``."""

    text: str
    starts: list[int]
    ends: list[int]

    def origin(self, start: int, end: int) -> tuple[int, int]:
        """The span of the source that ``text[start:end]`` (not empty) was read from."""
        return self.starts[start], self.ends[end - 1]


# A cut of the text as written: start, end and the label it is reported under.
_Cut = tuple[int, int, str]

# html.unescape's own pattern, so a token decodes here exactly as it would in the whole text.
_ENTITY = re.compile(r"&(?:#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)")
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
# Runs of whitespace and control characters, which a reader skips like a space; a lone space or line
# feed is left out, as it already reads as itself (matching each would cost more than the rest).
_SPACE = re.compile(r"(?! (?![\s\x00-\x1f\x7f-\x9f])|\n(?![\s\x00-\x1f\x7f-\x9f]))[\s\x00-\x1f\x7f-\x9f]+")
# What str.splitlines breaks a line at.
_LINE_BREAKS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")
# A sentence ends at one of these followed by whitespace (or the end of its line).
_SENTENCE_ENDS = frozenset(".!?\u2026\u3002\uff01\uff1f")
# Entities nest (&amp;lt;) and folding makes new ones (＆lt; is &lt;). A few rounds unwrap more than any
# reader would; the bound keeps a crafted text from buying unbounded work.
_READING_ROUNDS = 8


def excise_injections(text: str) -> Sanitized:
    rules = _rules()
    excised: list[str] = []
    # Each pass cuts markers or, once none are left, injection lines. Removing one marker can join the
    # halves of another ("<|im_<|im_end|>start|>"), so repeat until a pass cuts nothing. Every cut
    # shortens the text, so this ends, and on a text it returns a pass cuts nothing: idempotent.
    while True:
        reading = _read(text)
        cuts = _marker_cuts(rules, text, reading) or _sentence_cuts(rules, text, reading)
        if not cuts:
            return Sanitized(text, tuple(dict.fromkeys(excised)))
        excised += [label for _, _, label in cuts]
        text = _cut(text, cuts)


def _marker_cuts(rules: _Rules, text: str, reading: _Reading) -> list[_Cut]:
    found = [(match.start(), match.end(), _label(rules.token_labels, match)) for match in rules.tokens.finditer(text)]
    for match in rules.tags.finditer(reading.text):
        found.append((*reading.origin(*match.span()), _label(rules.tag_labels, match)))
    # A token inside a tag's attributes goes with the tag, as one marker.
    cuts: list[_Cut] = []
    for cut in sorted(found):
        if not cuts or cut[0] >= cuts[-1][1]:
            cuts.append(cut)
    return cuts


def _label(labels: tuple[str, ...], match: re.Match[str]) -> str:
    assert match.lastindex is not None  # every alternative is a group, so one of them matched
    return labels[match.lastindex - 1]


def _sentence_cuts(rules: _Rules, text: str, reading: _Reading) -> list[_Cut]:
    """The sentence each pattern's match is in, from its start to its end: the reading joins lines,
    so one match may span several lines, and takes them. A sentence ends at a line break, or at a
    full stop, question or exclamation mark or ellipsis followed by a space."""
    bounds = _line_bounds(text)
    cuts: list[_Cut] = []
    for name, pattern in rules.lines:
        for match in pattern.finditer(reading.text):
            span = _trimmed(reading.text, match)
            if span is None:
                continue
            start, end = reading.origin(*span)
            first, last = bisect_right(bounds, start) - 1, bisect_left(bounds, end) - 1
            cuts.append(
                (
                    _sentence_start(text, bounds[first], start),
                    _sentence_end(text, end, bounds[last + 1]),
                    f"line:{name}",
                )
            )
    return sorted(cuts)


def _sentence_start(text: str, line_start: int, position: int) -> int:
    for index in range(position - 1, line_start, -1):
        if text[index].isspace() and text[index - 1] in _SENTENCE_ENDS:
            return index + 1
    return line_start


def _sentence_end(text: str, position: int, line_end: int) -> int:
    """Past the sentence's closing mark and the spaces after it; the line's end (its break
    included) if no mark closes it first."""
    for index in range(position, line_end):
        if text[index] in _SENTENCE_ENDS and (index + 1 == line_end or text[index + 1].isspace()):
            after = index + 1
            while after < line_end and text[after].isspace():
                after += 1
            return after
    return line_end


def _line_bounds(text: str) -> list[int]:
    """Where each line starts, then the end of the text."""
    bounds = [0]
    for line in text.splitlines(keepends=True):
        bounds.append(bounds[-1] + len(line))
    return bounds


def _trimmed(text: str, match: re.Match[str]) -> tuple[int, int] | None:
    """The match without whitespace at its ends, which may stand for the line break before or after it."""
    start, end = match.span()
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if start < end else None


def _cut(text: str, cuts: list[_Cut]) -> str:
    kept: list[str] = []
    position = 0
    for start, end, _ in sorted(cuts):
        kept.append(text[position:start])
        position = max(position, end)
    kept.append(text[position:])
    return "".join(kept)


def _read(text: str) -> _Reading:
    reading = _Reading(text, list(range(len(text))), list(range(1, len(text) + 1)))
    for _ in range(_READING_ROUNDS):
        again = _fold(_decode(reading))
        if again.text == reading.text:
            break
        reading = again
    return _collapse_space(reading)


def _decode(reading: _Reading) -> _Reading:
    """HTML entities as the characters they stand for, each read from the whole entity."""
    if "&" not in reading.text:
        return reading
    return _rewrite(reading, _ENTITY, html.unescape)


def _fold(reading: _Reading) -> _Reading:
    """NFKC, invisible characters dropped, look-alikes as ASCII, case folded, character by character so
    each keeps its span; ASCII only needs its case."""
    text: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    position = 0
    for match in _NON_ASCII.finditer(reading.text):
        start, end = match.span()
        text.append(reading.text[position:start].lower())
        starts += reading.starts[position:start]
        ends += reading.ends[position:start]
        for index in range(start, end):
            folded = _fold_char(reading.text[index])
            text.append(folded)
            starts += [reading.starts[index]] * len(folded)
            ends += [reading.ends[index]] * len(folded)
        position = end
    text.append(reading.text[position:].lower())
    starts += reading.starts[position:]
    ends += reading.ends[position:]
    return _Reading("".join(text), starts, ends)


@lru_cache(maxsize=4096)
def _fold_char(char: str) -> str:
    rules = _rules()
    kept = (
        rules.lookalikes.get(part) or rules.letters.get(part.lower()) or rules.letters.get(part, part)
        for part in unicodedata.normalize("NFKC", char)
        if unicodedata.category(part) != "Cf" and not rules.invisible.fullmatch(part)
    )
    return "".join(kept).casefold()


def _collapse_space(reading: _Reading) -> _Reading:
    """Each run of whitespace and control characters as one space, or one line break if it holds any."""
    return _rewrite(reading, _SPACE, lambda run: "\n" if _LINE_BREAKS.intersection(run) else " ")


def _rewrite(reading: _Reading, pattern: re.Pattern[str], replace: Callable[[str], str]) -> _Reading:
    """``reading`` with each match of ``pattern`` replaced, the replacement read from the match's whole
    span; a match left as it was keeps the spans of its characters."""
    text: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    position = 0
    for match in pattern.finditer(reading.text):
        start, end = match.span()
        text.append(reading.text[position:start])
        starts += reading.starts[position:start]
        ends += reading.ends[position:start]
        replacement = replace(match.group())
        text.append(replacement)
        if replacement == match.group():
            starts += reading.starts[start:end]
            ends += reading.ends[start:end]
        else:
            starts += [reading.starts[start]] * len(replacement)
            ends += [reading.ends[end - 1]] * len(replacement)
        position = end
    text.append(reading.text[position:])
    starts += reading.starts[position:]
    ends += reading.ends[position:]
    return _Reading("".join(text), starts, ends)


@cache
def _rules() -> _Rules:
    data = load_rules("injection")
    # Longest first, so a token that is a prefix of another never wins the alternation.
    tokens: list[str] = sorted(data["tokens"], key=len, reverse=True)
    tags: list[str] = data["tags"]
    # Every token opens with one of a few characters; testing that first lets the engine pass over
    # ordinary text instead of trying each alternative at every position.
    openers = re.escape("".join(sorted({token[0] for token in tokens})))
    token_alternation = "|".join(f"({re.escape(token)})" for token in tokens)
    return _Rules(
        tokens=re.compile(f"(?=[{openers}])(?:{token_alternation})", re.IGNORECASE),
        token_labels=tuple(f"token:{token}" for token in tokens),
        tags=re.compile("|".join(f"({_tag_pattern(tag)})" for tag in tags)),
        tag_labels=tuple(f"tag:{tag}" for tag in tags),
        lines=tuple(
            (rule["name"], re.compile(rule["pattern"], re.IGNORECASE | re.MULTILINE)) for rule in data["line_patterns"]
        ),
        lookalikes={char: ascii_char for ascii_char, chars in data["lookalikes"].items() for char in chars},
        letters=_confusable_letters(),
        invisible=re.compile(data["invisible"]),
    )


def _confusable_letters() -> dict[str, str]:
    """Each character Unicode lists as confusable with one ASCII letter or digit (Cyrillic о, Greek
    ο, mathematical and other styled letters NFKC leaves alone), as that letter. The lowercase of
    a capital is looked up first: Cyrillic І reads as i, not as the l its capital resembles."""
    letters: dict[str, str] = {}
    for char, homoglyphs in confusables_data.items():
        if len(char) != 1 or char.isascii():
            continue
        latin = [glyph["c"] for glyph in homoglyphs if len(glyph["c"]) == 1 and glyph["c"].isascii()]
        latin = [glyph for glyph in latin if glyph.isalnum()]
        if latin:
            letters[char] = latin[0]
    return letters


def _tag_pattern(name: str) -> str:
    """Opening (any attributes), closing or self-closing ``name`` tag in a reading; the lookahead stops
    at the end of the name, so a longer tag name merely starting with it is not taken. Spaces around the
    name's hyphens still spell it."""
    spelled = r"\s*-\s*".join(re.escape(part) for part in name.casefold().split("-"))
    return rf"<\s*/?\s*{spelled}(?=[\s/>])[^<>]*>"
