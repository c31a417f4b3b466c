"""Unlabelled secrets: tokens whose characters look machine-made, whatever their vendor.

A token is a run of key characters; it is a secret when a stretch of it between separators looks
random (``shapes.random_segment``). What looks random but is not a secret is let through on
principle, not by vendor: UUIDs (their stretches are short), hex where the words before it say hash,
commit, digest or checksum, or where a checksum listing puts a file name after it; encoded media and
data after a word that says so; public identifiers and password hashes that declare their format
(``[allow] public``); SSH public keys; the bodies of certificates and public-key blocks; host names;
the paths of URLs (their query values are judged like any token); and base64 that decodes to text,
which the decode layer has already judged by what it wraps.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator
from functools import cache

from hippograph.kernel.text.secretscan.base58 import is_address
from hippograph.kernel.text.secretscan.hits import Hit, Veto
from hippograph.kernel.text.secretscan.shapes import is_hex, is_public, random_segment
from hippograph.kernel.text.secretscan.words import secret_words
from hippograph.kernel.text.secretscan.wrapped import from_base64

KIND = "high_entropy"
_TOKEN = re.compile(r"(?<![A-Za-z0-9+/_.~:$%-])[A-Za-z0-9+/_.~:$%-]{16,}={0,2}")
_HOSTNAME = re.compile(r"[a-z0-9-]+(?:\.[a-z0-9-]+)+\.[a-z]{2,24}")
_PUBLIC_BLOCK = re.compile(
    r"-{4,5} ?BEGIN (?P<label>[A-Z0-9 ]*?) ?-{4,5}.*?(?:-{4,5} ?END (?P=label) ?-{4,5}|\Z)", re.DOTALL
)
_SSH_KEY_TYPE = re.compile(r"(?:ssh|ecdsa|sk)-[\w@.-]+[ \t]+$")
_CHECKSUM_LISTING = re.compile(r"[ \t]+\*?[\w./-]+\.\w{1,8}\b")
# The magic numbers of encoded media and archives: PNG, JPEG, GIF, WebP/RIFF, PDF, ZIP, gzip, MP4.
_MEDIA_MAGIC = (b"\x89PNG", b"\xff\xd8\xff", b"GIF8", b"RIFF", b"%PDF", b"PK\x03\x04", b"\x1f\x8b", b"\0\0\0 ftyp")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9-]*")


@cache
def _allowances() -> tuple[frozenset[str], frozenset[str], int]:
    allow = secret_words()["allow"]
    return frozenset(allow["hash_words"]), frozenset(allow["data_words"]), int(allow["window"])


def find(text: str, veto: Veto) -> Iterator[Hit]:
    public_blocks = [m.span() for m in _PUBLIC_BLOCK.finditer(text) if not _is_private(m["label"])]
    for match in _TOKEN.finditer(text):
        start = match.start()
        if any(a <= start < b for a, b in public_blocks):
            continue
        token = match.group().rstrip(".:,")
        if "://" in token:
            yield from _url_query_values(text, start, token, veto)
            continue
        if _is_secret_token(text, start, token) and not veto(token):
            yield Hit(start, start + len(token), KIND)


def _is_private(label: str) -> bool:
    return any(word in label for word in ("PRIVATE", "SECRET", "STATIC KEY", "ENCRYPTED"))


def _url_query_values(text: str, start: int, url: str, veto: Veto) -> Iterator[Hit]:
    query = url.find("?")
    if query < 0:
        return
    for value in re.finditer(r"=([^&#=]{16,})", url[query:]):
        begin = start + query + value.start(1)
        token = value.group(1)
        if _is_secret_token(text, begin, token) and not veto(token):
            yield Hit(begin, begin + len(token), KIND)


def _is_secret_token(text: str, start: int, token: str) -> bool:
    # "0x" is hex notation (a transaction hash, a key): judge the digits after it as hex.
    segment = token[2:] if token.startswith("0x") and is_hex(token[2:]) else random_segment(token)
    if segment is None or (is_hex(segment) and len(segment) < 32):
        return False
    hash_words, data_words, window = _allowances()
    if is_public(token) or _HOSTNAME.fullmatch(token) or is_address(token):
        return False
    before = text[max(0, start - window) : start]
    words = {word.lower() for word in _WORD.findall(before)}
    if is_hex(segment):
        after = text[start + len(token) : start + len(token) + 40]
        return not (words & hash_words or _CHECKSUM_LISTING.match(after))
    if _SSH_KEY_TYPE.search(before) or _is_ssh_public_key(token) or _is_media(token):
        return False
    # Base64 of text is a wrapper, and the decode layer has judged what it wraps (a certificate's
    # client-certificate-data stays, a registry auth does not).
    if from_base64(token) is not None:
        return False
    return not (words & data_words or before.rstrip().endswith("base64,"))


def _decoded_head(token: str) -> bytes:
    head = token[:24]
    try:
        return base64.b64decode(head + "=" * (-len(head) % 4))
    except (binascii.Error, ValueError):
        return b""


def _is_media(token: str) -> bool:
    return _decoded_head(token).startswith(_MEDIA_MAGIC)


def _is_ssh_public_key(token: str) -> bool:
    """The SSH wire format: a 4-byte length, then the key type's name (``ssh-ed25519``, ``ecdsa-…``)."""
    head = _decoded_head(token)
    return len(head) > 8 and head[:3] == b"\0\0\0" and head[4:].startswith((b"ssh-", b"ecdsa-", b"sk-"))
