"""Secrets named in prose, in any of the languages of ``extract/secret_words.toml``: a credential noun,
then within the same sentence a link and the value ("the password, which I changed yesterday, is
X", "Passwort für den Router lautet X", "パスワードは X"), or a verb whose object is a credential
("log in with X"). Clauses may sit between the noun and its link; the value must still look like a
password or a machine-made key, so "the password is in the vault" stays as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import islice

from hippograph.kernel.text.secretscan.hits import Hit, Veto
from hippograph.kernel.text.secretscan.shapes import is_password_like, looks_random, not_a_secret
from hippograph.kernel.text.secretscan.words import flat, secret_words

KIND = "prose_credential"
WINDOW = 80  # characters after a noun in which its link and value may come
LINKS = 4  # links tried after a noun: "the password, for the NAS, is now X" needs two
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_LETTERS = re.compile(r"[^\W\d_]+")
# A phrase inside an identifier is a name, not prose: "token_ttl", "max-password-length", "pin2".
_JOINER = re.compile(r"[\w-]")
_LINK_TOKEN = re.compile(r"->|=>|[:：=→—–]|(?<=\s)-(?=\s)|[^\W\d_]+")
# A value runs to whitespace; sentence punctuation and closing quotes after it stay outside.
# A value longer than any password is no prose value (and judging every such run from every noun
# before it would be quadratic): the match fails instead.
_VALUE = re.compile(r"""[ \t]*[\"'“‘«「]?(?P<value>[^\s\"'“”‘’«»「」]{1,128}+)(?![^\s\"'“”‘’«»「」])""")
_TRAILING = ".,;:)]}。、"
# Where a sentence ends, the noun's window ends.
_SENTENCE_END = re.compile(r"[.!?。](?:\s|$)|\n")


class Lexicon:
    """Finds the phrases of a word list in text, whole words only, in any case.

    One alternation of hundreds of phrases under IGNORECASE costs a regex attempt per character;
    a substring search per distinct first word runs at the speed of ``str.find``.
    Phrases in CJK scripts, which have no spaces between words, go to one regex instead.
    """

    def __init__(self, phrases: list[str]) -> None:
        by_first: dict[str, list[str]] = {}
        unspaced: list[str] = []
        for phrase in sorted({p.lower() for p in phrases}, key=len, reverse=True):
            if _CJK.search(phrase):
                unspaced.append(re.escape(phrase))
                continue
            first = _LETTERS.match(phrase)
            if first is not None:
                by_first.setdefault(first.group(), []).append(phrase)
        self._by_first = {word: tuple(found) for word, found in by_first.items()}
        self._unspaced = re.compile("|".join(unspaced)) if unspaced else None

    def find(self, text: str) -> Iterator[tuple[int, int, str]]:
        lowered = text.lower()
        if len(lowered) != len(text):  # a few letters lower-case to two ("İ"): offsets would shift
            lowered = "".join(char if len(char.lower()) != 1 else char.lower() for char in text)
        # The first words present at all, found in one C-level pass; only they are searched for.
        present = self._by_first.keys() & set(_LETTERS.findall(lowered))
        for first in present:
            phrases = self._by_first[first]
            start = lowered.find(first)
            while start >= 0:
                if not (start and _JOINER.match(text, start - 1)):
                    for phrase in phrases:
                        end = start + len(phrase)
                        if lowered.startswith(phrase, start) and not _JOINER.match(text, end):
                            yield start, end, phrase
                            break
                start = lowered.find(first, start + 1)
        if self._unspaced is not None and _CJK.search(text):
            for match in self._unspaced.finditer(text):
                yield match.start(), match.end(), match.group()


@dataclass(frozen=True, slots=True)
class _Matchers:
    nouns: Lexicon
    links: frozenset[str]  # single words; a link of several ("is now") is read word by word
    verbs: Lexicon
    pin_nouns: frozenset[str]


@cache
def _matchers() -> _Matchers:
    prose = secret_words()["prose"]
    return _Matchers(
        nouns=Lexicon(flat(prose["nouns"])),
        links=frozenset(word for link in flat(prose["links"]) for word in _LETTERS.findall(link)),
        verbs=Lexicon(flat(prose["verbs"])),
        pin_nouns=frozenset(flat(prose["pin_nouns"])),
    )


def _links(text: str, start: int, end: int, words: frozenset[str]) -> Iterator[int]:
    """Where a value may start after each link between ``start`` and ``end``: after a link word
    standing alone ("is", "lautet", "は") or a punctuation link (":", "=", "->", a dash)."""
    for token in _LINK_TOKEN.finditer(text, start, end):
        if not token.group()[0].isalpha() or token.group().lower() in words:
            yield token.end()


def _value_at(text: str, position: int) -> tuple[str, int] | None:
    match = _VALUE.match(text, position)
    if match is None:
        return None
    value = match["value"].rstrip(_TRAILING)
    return (value, match.start("value")) if value else None


def _qualifies(value: str, pin: bool) -> bool:
    if pin:  # a PIN is a number; "pin: Qm…" pins a content identifier
        return value.isdigit() and 4 <= len(value) <= 12
    return is_password_like(value) or looks_random(value, 12)


def _strong(value: str) -> bool:
    """A value that needs no link to be read as a secret: machine-made, or letters with digits and symbols."""
    if not_a_secret(value):
        return False
    has_symbol = bool(re.search(r"[^\w\s'-]", value.rstrip(_TRAILING)))
    return looks_random(value, 12) or (len(value) >= 8 and has_symbol and is_password_like(value, 8))


def find(text: str, veto: Veto) -> Iterator[Hit]:
    matchers = _matchers()
    for _, noun_end, noun in matchers.nouns.find(text):
        end = _SENTENCE_END.search(text, noun_end, noun_end + WINDOW)
        window_end = end.start() if end else min(len(text), noun_end + WINDOW)
        pin = noun in matchers.pin_nouns
        if next(_links(text, noun_end, window_end, matchers.links), None) is not None:
            hit = _linked_value(text, noun_end, window_end, pin, matchers)
        else:
            hit = _unlinked_value(text, noun_end, window_end)
        if hit is not None and not veto(text[hit.start : hit.end]):
            yield hit
    for _, verb_end, _ in matchers.verbs.find(text):
        found = _value_at(text, verb_end)
        if found and _strong(found[0]) and not veto(found[0]):
            yield Hit(found[1], found[1] + len(found[0]), KIND)


def _linked_value(text: str, start: int, end: int, pin: bool, matchers: _Matchers) -> Hit | None:
    for after in islice(_links(text, start, end, matchers.links), LINKS):
        found = _value_at(text, after)
        if found and found[1] < end + 2 and _qualifies(found[0], pin):
            return Hit(found[1], found[1] + len(found[0]), KIND)
    return None


def _unlinked_value(text: str, start: int, end: int) -> Hit | None:
    """ "пароль от сервера X", "sunucu şifresi X": no link, so only a value that is plainly a secret."""
    position = start
    for _ in range(4):
        found = _value_at(text, position)
        if found is None or found[1] >= end:
            return None
        if found[0][0].isalnum() and _strong(found[0]):
            return Hit(found[1], found[1] + len(found[0]), KIND)
        position = found[1] + len(found[0])
    return None
