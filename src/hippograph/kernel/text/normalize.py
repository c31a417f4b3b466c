"""The stored form of content and the hash that identifies it for deduplication."""

from __future__ import annotations

import hashlib
import re
import unicodedata

_HORIZONTAL_SPACE = re.compile(r"[^\S\n]+")
_BLANK_LINES = re.compile(r"\n\s*\n+")
_ANY_SPACE = re.compile(r"\s+")
_TRAILING_PUNCTUATION = re.compile(r"[\s.!?,;:…]+$")


def storage_form(text: str) -> str:
    """Trimmed, runs of spaces collapsed. Line breaks survive (one blank line at most): a document
    or a code snippet read back without its lines would be a worse memory."""
    text = unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n"))
    lines = (_HORIZONTAL_SPACE.sub(" ", line).strip() for line in text.split("\n"))
    return _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip()


def hash_basis(text: str) -> str:
    """What two captures must share to count as the same memory: case, spacing, compatibility
    characters and trailing punctuation do not make a new one."""
    basis = _ANY_SPACE.sub(" ", unicodedata.normalize("NFKC", text)).strip().casefold()
    return _TRAILING_PUNCTUATION.sub("", basis)


def content_hash(text: str) -> str:
    return hashlib.sha256(hash_basis(text).encode("utf-8")).hexdigest()
