"""Word stems for full-text search: "researching" and "research", "camped" and "camping" meet.

The stores' full-text analysers do not stem, and each server's analysers differ; stemming here,
before the text reaches either, keeps both alike. The Snowball English stemmer (Porter 2) is
what Lucene's English analysers use.
"""

from __future__ import annotations

import re
import threading

import snowballstemmer

_WORD = re.compile(r"\w+", re.UNICODE)
# A stemmer keeps state between calls: one per thread.
_local = threading.local()


def stems(text: str) -> str:
    """The text's lower-cased words, each replaced by its stem, joined by spaces."""
    stemmer = getattr(_local, "stemmer", None)
    if stemmer is None:
        stemmer = _local.stemmer = snowballstemmer.stemmer("english")
    return " ".join(stemmer.stemWords(_WORD.findall(text.casefold())))
