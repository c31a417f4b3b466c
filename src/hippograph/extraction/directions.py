"""How a typed relation reads from its object's end, from ``extract/relation_directions.toml``:
symmetric types read the same, inverse pairs as each other. Edges are stored once; readers name
the other direction with :func:`reverse_type`."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from hippograph.extraction.schema import Schema, validated
from hippograph.extraction.vocabulary import RelationType, relation_types
from hippograph.kernel.rules import load_rules

_FILE = "extract/relation_directions.toml"


class _PairSpec(Schema):
    type: str
    inverse: str


class _DirectionsFile(Schema):
    symmetric: list[str]
    inverse: list[_PairSpec]


@dataclass(frozen=True)
class Directions:
    """``reverse`` maps a type to its reading from the object, with the entity types that reading
    takes at that end (its subjects); ``symmetric`` are the types that read as themselves."""

    symmetric: frozenset[str]
    reverse: dict[str, tuple[str, frozenset[str]]]

    def reverse_type(self, type: str, object_type: str | None) -> str | None:
        """What an edge of ``type`` means read from its object (an entity of ``object_type``), or
        None when the type has no such reading or the object cannot be its subject."""
        reading = self.reverse.get(type)
        if reading is None:
            return None
        name, subjects = reading
        return name if object_type in subjects else None


@cache
def directions() -> Directions:
    return parse_directions(load_rules("relation_directions"), relation_types())


def reverse_type(type: str, object_type: str | None) -> str | None:
    """:meth:`Directions.reverse_type` of the rule file."""
    return directions().reverse_type(type, object_type)


def parse_directions(data: dict[str, Any], types: dict[str, RelationType]) -> Directions:
    """``data`` (the parsed TOML) checked against the declared ``types``; a ValueError naming the
    file and the entry otherwise."""

    def entry(location: tuple[int | str, ...]) -> tuple[str | None, int]:
        if len(location) >= 2 and location[0] == "inverse" and isinstance(location[1], int):
            return f"inverse {location[1] + 1}", 2
        return None, 0

    spec = validated(_DirectionsFile, data, _FILE, entry)
    reverse: dict[str, tuple[str, frozenset[str]]] = {}
    for name in spec.symmetric:
        declared = types.get(name)
        if declared is None:
            raise ValueError(f"{_FILE}: symmetric type {name!r} is not declared in relation_types.toml")
        if declared.subject != declared.object:
            raise ValueError(f"{_FILE}: symmetric type {name!r} takes other subjects than objects")
        reverse[name] = (name, declared.subject)
    for number, pair in enumerate(spec.inverse, start=1):
        declared = types.get(pair.type)
        if declared is None:
            raise ValueError(f"{_FILE}: inverse {number}: type {pair.type!r} is not declared in relation_types.toml")
        both = {pair.type, pair.inverse}
        if pair.type == pair.inverse or both & reverse.keys():
            raise ValueError(f"{_FILE}: inverse {number}: {pair.type} / {pair.inverse} is symmetric or in another pair")
        other = types.get(pair.inverse)
        # An undeclared inverse (CHILD_OF) is only ever read: its subjects are the type's objects.
        reverse[pair.type] = (pair.inverse, declared.object if other is None else other.subject)
        if other is not None:
            reverse[pair.inverse] = (pair.type, declared.subject)
    return Directions(frozenset(spec.symmetric), reverse)
