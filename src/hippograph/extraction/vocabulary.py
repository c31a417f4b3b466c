"""The closed vocabulary of typed entity edges, from extract/relation_types.toml."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from hippograph.extraction.schema import AnEntityType, Schema, validated
from hippograph.kernel.rules import load_rules

_FILE = "extract/relation_types.toml"


@dataclass(frozen=True)
class RelationType:
    name: str
    functional: bool
    subject: frozenset[str]
    object: frozenset[str]
    gloss: str


class _TypeSpec(Schema):
    name: str
    functional: bool
    subject: list[AnEntityType]
    object: list[AnEntityType]
    gloss: str


class _TypesFile(Schema):
    types: list[_TypeSpec]


@cache
def relation_types() -> dict[str, RelationType]:
    return parse_types(load_rules("relation_types"))


def parse_types(data: dict[str, Any]) -> dict[str, RelationType]:
    """``data`` (the parsed TOML) as relation types; a ValueError naming the file and the type otherwise."""

    def entry(location: tuple[int | str, ...]) -> tuple[str | None, int]:
        if len(location) >= 2 and location[0] == "types" and isinstance(location[1], int):
            raw = data["types"][location[1]]
            name = raw.get("name") if isinstance(raw, dict) else None
            return f"type {location[1] + 1} ({name if isinstance(name, str) else '?'})", 2
        return None, 0

    specs = validated(_TypesFile, data, _FILE, entry).types
    names = [spec.name for spec in specs]
    if len(set(names)) != len(names):
        raise ValueError(f"{_FILE}: types declared twice: {sorted({n for n in names if names.count(n) > 1})}")
    return {
        spec.name: RelationType(
            spec.name,
            spec.functional,
            frozenset(kind.value for kind in spec.subject),
            frozenset(kind.value for kind in spec.object),
            spec.gloss,
        )
        for spec in specs
    }
