"""Identity keys for derived nodes: what makes two mentions one entity, two sentences one fact."""

from __future__ import annotations

import hashlib
import re

_EDGE_PUNCTUATION = re.compile(r"^[\W_]+|[\W_]+$")
_POSSESSIVE = re.compile(r"['’]s$")


def canonical_key(name: str) -> str:
    """Case, spacing, a trailing possessive and edge punctuation do not make another entity;
    a leading '@' does (a handle is not a name)."""
    folded = " ".join(name.casefold().split())
    handle = folded.startswith("@")
    folded = _EDGE_PUNCTUATION.sub("", _POSSESSIVE.sub("", folded))
    return "@" + folded if handle else folded


def relation_fact_hash(subject_id: str, predicate: str, object_id: str, negated: bool) -> str:
    """Two sentences stating the same relation are one fact with two supporting episodes."""
    return _sha(f"rel|{subject_id}|{predicate}|{object_id}|{'not' if negated else 'is'}")


def statement_fact_hash(kind: str, statement_basis: str) -> str:
    return _sha(f"stmt|{kind}|{statement_basis}")


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
