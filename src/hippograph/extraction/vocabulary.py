"""The closed vocabulary of typed entity edges, from extract/relation_types.toml."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from hippograph.kernel.rules import load_rules


@dataclass(frozen=True)
class RelationType:
    name: str
    functional: bool
    subject: frozenset[str]
    object: frozenset[str]
    gloss: str


@cache
def relation_types() -> dict[str, RelationType]:
    return {
        entry["name"]: RelationType(
            entry["name"], entry["functional"], frozenset(entry["subject"]), frozenset(entry["object"]), entry["gloss"]
        )
        for entry in load_rules("relation_types")["types"]
    }
