"""Named word lists in the rule files: an entry "@name" in a list stands for the words of lexicon
``name``, which may itself name others. One expansion for every rule file that uses them."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any


def expand(entries: Iterable[Any], lookup: Callable[[str], Iterable[Any]]) -> list[Any]:
    """``entries`` with each "@name" replaced by ``lookup(name)``, itself expanded, in order."""
    words: list[Any] = []
    for entry in entries:
        if isinstance(entry, str) and entry.startswith("@"):
            words += expand(lookup(entry[1:]), lookup)
        else:
            words.append(entry)
    return words
