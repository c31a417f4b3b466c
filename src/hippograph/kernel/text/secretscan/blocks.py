"""Private keys of any armour and wallet secrets: ``BEGIN … PRIVATE KEY`` blocks under any label,
OpenVPN static keys, SSH2 (RFC 4716) private keys, PuTTY ``.ppk`` private lines, minisign and
signify secret keys, private JWK members, raw key bytes (``[174, 47, …]``), Base58Check private keys
(WIF, ``xprv``), and BIP39 seed phrases in any language the ``mnemonic`` package ships.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import mnemonic

from hippograph.kernel.text.secretscan.base58 import decode_check
from hippograph.kernel.text.secretscan.hits import Hit, Veto

KIND = "private_key"  # the kind credentials.toml gives PEM blocks: one name for every private key
SEED_KIND = "seed_phrase"
SEED_WORDS = 12  # the shortest BIP39 phrase
_ARMOUR = re.compile(
    r"-{4,5} ?BEGIN (?P<label>[A-Za-z0-9 ]*?(?:PRIVATE|SECRET|Static key|ENCRYPTED PRIVATE)[A-Za-z0-9 ]*?) ?-{4,5}"
    r".*?(?:-{4,5} ?END (?P=label) ?-{4,5}|\Z)",
    re.DOTALL | re.IGNORECASE,
)
# Possessive runs, one line each: a long base64 run cannot be split into lines in many ways.
_PUTTY = re.compile(r"^Private-Lines:[ \t]*\d+[ \t]*\r?\n(?P<body>(?:[A-Za-z0-9+/=]++(?:\r?\n)?)++)", re.MULTILINE)
_SIGNIFY = re.compile(r"untrusted comment:[^\n]*secret key[^\n]*\r?\n(?P<body>[A-Za-z0-9+/=]{40,})", re.IGNORECASE)
_JWK_PRIVATE = re.compile(r""""(?:d|p|q|dp|dq|qi|k)"\s*:\s*"(?P<body>[A-Za-z0-9_-]{16,})\"""")
_KEY_BYTES = re.compile(r"\[\s*(?:\d{1,3}\s*,\s*){31,}\d{1,3}\s*\]")
_BASE58_RUN = re.compile(r"(?<![A-Za-z0-9])[1-9A-HJ-NP-Za-km-z]{50,112}(?![A-Za-z0-9])")
# WIF private keys, and BIP32 extended private keys (xprv, tprv, yprv, zprv and their multisig kin).
_PRIVATE_VERSIONS = (
    b"\x80",
    b"\xef",
    b"\x04\x88\xad\xe4",
    b"\x04\x35\x83\x94",
    b"\x04\x9d\x78\x78",
    b"\x04\xb2\x43\x0c",
)
# Letters, and in text holding combining marks, letters with their marks: word lists in NFKD spell
# "guiño" as "n" and a combining tilde. The plain class is several times faster on prose.
_PLAIN_LETTERS = r"[^\W\d_]{2,12}"
_LETTERS = r"(?:[^\W\d_]|[\u0300-\u036f\u3099\u309a]){2,12}"
_ANY_WORD = re.compile(r"[^\W\d_]+")
_MARKS = re.compile(r"[\u0300-\u036f\u3099\u309a]")
_WORD = re.compile(_LETTERS)
# What may separate two words of a phrase: spaces, a comma, a line break, a list number ("2. ").
_GAP_TEXT = r"(?:[ \t,;]+|[ \t]*\r?\n[ \t]*)(?:\d{1,2}[.):][ \t]*)?"
# Stretches of 12 or more words of list length with only gaps between them: the only places a phrase
# can be. Each repetition needs a separator, so a long word cannot be split into "words" of it.
_CANDIDATES = tuple(
    re.compile(rf"(?<![^\W\d_]){letters}(?:{_GAP_TEXT}{letters}){{{SEED_WORDS - 1},}}(?![^\W\d_])")
    for letters in (_PLAIN_LETTERS, _LETTERS)
)


def find(text: str, veto: Veto) -> Iterator[Hit]:
    for match in _ARMOUR.finditer(text):
        yield Hit(match.start(), match.end(), KIND)
    for pattern in (_PUTTY, _SIGNIFY):
        for match in pattern.finditer(text):
            yield Hit(match.start("body"), match.end("body"), KIND)
    if '"kty"' in text:
        for match in _JWK_PRIVATE.finditer(text):
            yield Hit(match.start("body"), match.end("body"), KIND)
    for match in _KEY_BYTES.finditer(text):
        if all(int(number) < 256 for number in re.findall(r"\d+", match.group())):
            yield Hit(match.start(), match.end(), KIND)
    for match in _BASE58_RUN.finditer(text):
        payload = decode_check(match.group())
        if payload is not None and payload.startswith(_PRIVATE_VERSIONS):
            yield Hit(match.start(), match.end(), KIND)
    yield from _seed_phrases(text)


@cache
def _wordlist() -> frozenset[str]:
    """Every BIP39 word list ``mnemonic`` ships in an alphabetic script, NFKC and case folded."""
    folder = Path(mnemonic.__file__).parent / "wordlist"
    words: set[str] = set()
    for path in folder.glob("*.txt"):
        if path.stem.startswith(("chinese", "korean")):
            continue  # one-character words: any run of ideographs would be a phrase
        words.update(_fold(line) for line in path.read_text(encoding="utf-8").split() if line)
    return frozenset(words)


def _fold(word: str) -> str:
    return unicodedata.normalize("NFKC", word).casefold()


def _seed_phrases(text: str) -> Iterator[Hit]:
    """Runs of 12 or more list words, separated only by spaces, commas or list numbers."""
    wordlist = _wordlist()
    # Cheap first: are there 12 list words in a row at all, whatever separates them? Prose almost
    # never has them ("the", "I", "was" are in no list), and this costs one C-level pass.
    folded = text.lower() if text.isascii() else unicodedata.normalize("NFKC", text).casefold()
    if "1" * SEED_WORDS not in "".join("1" if word in wordlist else "0" for word in _ANY_WORD.findall(folded)):
        return
    for candidate in _CANDIDATES[bool(_MARKS.search(text))].finditer(text):
        run = candidate.group()
        folded = run.lower() if run.isascii() else unicodedata.normalize("NFKC", run).casefold()
        listed = [word in wordlist for word in _WORD.findall(folded)]
        if sum(listed) < SEED_WORDS:
            continue  # prose: most of its runs hold a word no list has ("the", "I", "and")
        words = list(_WORD.finditer(text, candidate.start(), candidate.end()))
        first = count = 0
        for index, (word, member) in enumerate(zip(words, listed, strict=True)):
            count = count + 1 if member else 0
            first = index if count == 1 else first
            ends_here = index + 1 == len(words) or not listed[index + 1]
            if count >= SEED_WORDS and ends_here:
                yield Hit(words[first].start(), word.end(), SEED_KIND)
