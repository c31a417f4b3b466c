"""What a value looks like: a password, a machine-made key, a stand-in, or a reference to one.

Every generic layer asks these questions of the value it found; none of them knows a vendor.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import cache

from hippograph.kernel.text.secretscan.words import secret_words

# ${VAR}, $VAR, {{ x }}, %(x)s, <your-key>, [hidden], $(cat f), `cmd`, !vault, env:VAR, file:path.
_REFERENCE = re.compile(
    r"""\$\{|\{\{|\{%|%\(|^\$\(|^`|^!|^<[^>]*>$|^\[[^\]]*\]$|^\{[^}]*\}$|^(?:env|file|fd|stdin):"""
    r"""|^\$[A-Za-z_][A-Za-z0-9_]*$|os\.environ|os\.getenv|getenv\(|process\.env|ENV\[|System\.getenv"""
)
# An identifier in capitals (YOUR_API_KEY, DB_PASSWORD), a call f(...), an index a[...] or a dotted name a.b.c.
_IDENTIFIER_REFERENCE = re.compile(
    r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Za-z_][\w.]*[(\[].*|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+"
)
# Runs of one masking character, possibly around a few visible characters: ********, ••••, xxxx1234.
_MASK_CHARS = frozenset("*•●·xX#?_.-…")
# Three of one masking character in a row: "***", "xxx", "•••"; "." "-" "_" only in their company.
_MASK_RUN = re.compile(r"([*•●·xX#])\1\1")
_LITERALS = frozenset({"true", "false", "yes", "no", "on", "off", "none", "null", "nil", "undefined", "required"})
_DATE_TIME_NUMBER = re.compile(r"[\d.,:/+\-]+[a-zA-Z]{0,3}|v?\d+(?:\.\d+)+(?:[-+][\w.]+)?")
_LETTER = re.compile(r"[^\W\d_]")
_DIGIT = re.compile(r"\d")
_WORD_SEPARATORS = re.compile(r"[^A-Za-z0-9]+")
# A symbol people put in passwords; hyphens and apostrophes join words ("case-sensitive", "don't"),
# and sentence punctuation counts only between characters ("a.b", not "word.").
_PASSWORD_SYMBOL = re.compile(r"[@#$%^&*_+=~/\\|<>{}\[\]]|[!?.:;,](?=\S)")


@cache
def _placeholder_words() -> frozenset[str]:
    return frozenset(secret_words()["placeholders"]["words"])


def is_placeholder(value: str) -> bool:
    """A mask (``********``, ``ghp_xxxx``, ``sk-****abcd``), an elided value (``sk-...``) or a
    stand-in such as ``<your-api-key>``, ``your_password_here``, ``changeme``: text that holds no
    secret."""
    stripped = value.strip("\"'` ")
    if not stripped or "..." in stripped or "…" in stripped:
        return True
    if _MASK_RUN.search(stripped) and len(stripped) - sum(map(stripped.count, _MASK_CHARS)) <= 8:
        return True
    # Whole words between separators only, so a random token that happens to hold "here" stays secret.
    words = {word.lower() for word in _WORD_SEPARATORS.split(stripped) if word}
    return bool(words & _placeholder_words()) and not looks_random(stripped)


def is_reference(value: str) -> bool:
    """A value that names where the secret is instead of holding it: ``${DB_PASSWORD}``, ``$PASS``,
    ``os.environ["KEY"]``, ``settings.API_KEY``, ``getpass()``, ``{{ .Values.password }}``."""
    stripped = value.strip("\"'")
    return bool(_REFERENCE.search(stripped) or _IDENTIFIER_REFERENCE.fullmatch(stripped))


def is_literal(value: str) -> bool:
    """``true``, ``null``, a number, a date, a time or a version: settings, not secrets."""
    stripped = value.strip("\"'")
    return stripped.lower() in _LITERALS or bool(_DATE_TIME_NUMBER.fullmatch(stripped))


@cache
def _public() -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{pattern})" for pattern in secret_words()["allow"]["public"]))


def is_public(value: str) -> bool:
    """An identifier that is published on purpose and looks random: a publishable key, a content
    address, a wallet address, a password hash in modular crypt format (``[allow] public``)."""
    return bool(_public().fullmatch(value.strip("\"'")))


def not_a_secret(value: str) -> bool:
    return is_literal(value) or is_reference(value) or is_placeholder(value) or is_public(value)


def is_password_like(value: str, minimum: int = 6) -> bool:
    """Something a person picks as a password: long enough, with a digit or a symbol, and not a
    number, a date, a path, a URL, a hyphenated word or a word with punctuation after it."""
    stripped = value.strip("\"'`")
    if len(stripped) < minimum or "\\" in stripped or not _LETTER.search(stripped):
        return False
    if not (_DIGIT.search(stripped) or _PASSWORD_SYMBOL.search(stripped) or looks_random(stripped)):
        return False
    return not (stripped.startswith(("/", "./", "~/", "http://", "https://")) or not_a_secret(stripped))


def entropy(value: str) -> float:
    """Shannon entropy in bits per character."""
    counts = Counter(value)
    total = len(value)
    return -sum(n / total * math.log2(n / total) for n in counts.values())


# Each ASCII character as its class: digit "0", lower "a", upper "A", anything else ".".
_CLASSES = str.maketrans(
    {
        chr(c): "0" if chr(c).isdigit() else "a" if chr(c).islower() else "A" if chr(c).isupper() else "."
        for c in range(128)
    }
)
_CLASS_RUNS = re.compile(r"0+|a+|A+|\.+|[^0aA.]+")


def transitions(value: str) -> float:
    """How often the character class (digit, lower, upper, other) changes, per character: about 0.6
    in random base62, 0.1 to 0.3 in identifiers and words."""
    if len(value) < 2:
        return 0.0
    runs = len(_CLASS_RUNS.findall(value.translate(_CLASSES)))
    return (runs - 1) / (len(value) - 1)


_HEX = re.compile(r"[0-9a-fA-F]+")
_SEGMENTS = re.compile(r"[-_.:~$%]")


def is_hex(value: str) -> bool:
    return bool(_HEX.fullmatch(value))


def random_segment(value: str, minimum: int = 16) -> str | None:
    """The first stretch of ``value`` between separators that looks machine-made, or None.

    Random base62/base64 changes character class every other character and is low in vowels;
    identifiers, words, paths and versions are not. A hex stretch counts from 32 characters on;
    whether it is a hash or a key is for the caller's context to say.
    """
    for segment in _SEGMENTS.split(value):
        segment = segment.rstrip("=")
        if len(segment) < minimum:
            continue
        if is_hex(segment):
            # Random hex has about 3.8 bits per character; "a1a1…" or "deadbeef…" repeated is no key.
            if len(segment) >= 32 and entropy(segment) >= 3.0 and not segment.isdigit():
                return segment
            continue
        if _segment_is_random(segment):
            return segment
    return None


def looks_random(value: str, minimum: int = 16) -> bool:
    return random_segment(value, minimum) is not None


def _segment_is_random(segment: str) -> bool:
    if not segment.isascii():
        return False
    classes = segment.translate(_CLASSES)
    digits, lower, upper = classes.count("0"), classes.count("a"), classes.count("A")
    letters = lower + upper
    if not letters or digits == len(segment):
        return False
    flips = transitions(segment)
    if digits == 0:
        vowel_share = sum(segment.count(vowel) for vowel in "aeiouAEIOU") / letters
        return bool(lower and upper) and len(segment) >= 20 and flips >= 0.4 and vowel_share < 0.35
    return flips >= 0.25 and entropy(segment) >= 3.0
