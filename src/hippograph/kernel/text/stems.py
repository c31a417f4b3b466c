"""Word stems for full-text search: "researching" and "research", "camped" and "camping" meet.

The stores' full-text analysers do not stem, and each server's analysers differ; stemming here,
before the text reaches either, keeps both alike. The Snowball English stemmer (Porter 2) is
what Lucene's English analysers use; PyStemmer runs Snowball's own C code for it, which gives the
pure-Python ``snowballstemmer`` package's stems (the same on 24,258 words of LoCoMo, our labelled
sets and docs) at ~20× the speed: on a capture of long texts stemming was the largest cost in
Python (docs/benchmarks.md, Capture).
"""

from __future__ import annotations

import re
import threading

import Stemmer

_WORD = re.compile(r"\w+", re.UNICODE)
# A stemmer keeps state (its cache of stems) between calls: one per thread.
_local = threading.local()


def stems(text: str) -> str:
    """The text's lower-cased words, each replaced by its stem, joined by spaces."""
    stemmer = getattr(_local, "stemmer", None)
    if stemmer is None:
        stemmer = _local.stemmer = Stemmer.Stemmer("english")
    return " ".join(stemmer.stemWords(_WORD.findall(text.casefold())))
