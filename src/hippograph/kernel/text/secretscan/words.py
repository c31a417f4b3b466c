"""The word lists of ``extract/secret_words.toml``, loaded once."""

from __future__ import annotations

from functools import cache
from typing import Any

from hippograph.kernel.rules import load_rules


@cache
def secret_words() -> dict[str, Any]:
    return load_rules("secret_words")


def flat(section: dict[str, list[str]]) -> list[str]:
    """Every word of a per-language table, longest first so that an alternation prefers it."""
    return sorted({word.lower() for words in section.values() for word in words}, key=len, reverse=True)
