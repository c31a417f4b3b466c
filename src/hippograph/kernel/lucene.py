"""Turn a natural-language question into a safe full-text query."""

from __future__ import annotations

import re
from functools import cache

from hippograph.kernel.resources import read_text

_WORD = re.compile(r"\w+", re.UNICODE)
MAX_TERMS = 32


@cache
def stopwords() -> frozenset[str]:
    lines = read_text("extract/stopwords.txt").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def fulltext_query(text: str) -> str | None:
    """Plain word terms joined by spaces, which Lucene reads as OR.

    Only word characters survive, so no Lucene operator, wildcard or quote from the user can reach
    the parser; None when nothing searchable is left (the channel is then skipped, not failed).
    """
    terms: list[str] = []
    for word in _WORD.findall(text.casefold()):
        if word not in stopwords() and word not in terms:
            terms.append(word)
    return " ".join(terms[:MAX_TERMS]) or None
