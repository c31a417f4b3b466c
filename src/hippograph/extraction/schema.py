"""Typed schemas for the rule files under ``extract/``, and errors that name the file and the entry.

A rule file is validated once, when it is loaded: a misspelt key would otherwise be ignored for
good, and a value of the wrong type would surface only when a sentence first reached it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, Strict, ValidationError

from hippograph.extraction.model import EntityType


class Schema(BaseModel):
    """A table of a rule file: no keys beyond the declared ones, and no coercion, since TOML
    already gives every value its type (a quoted "0.8" is a mistake, not a number)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


# Entity types are written as their names ("person"), which strict mode would refuse as enum values.
AnEntityType = Annotated[EntityType, Strict(False)]
Share = Annotated[float, Field(gt=0, le=1)]

# Names the entry a validation error's location falls in ("rule 3 (WORKS_AT on verb_prep)") and
# how many leading parts of the location that name covers; (None, 0) for a top-level table.
EntryName = Callable[[tuple[int | str, ...]], tuple[str | None, int]]

_S = TypeVar("_S", bound=Schema)


def validated(schema: type[_S], data: dict[str, Any], file: str, entry_name: EntryName) -> _S:
    """``data`` as ``schema``; a ValueError naming ``file``, the entry and each bad key otherwise."""
    try:
        return schema.model_validate(data)
    except ValidationError as error:
        problems = [_problem(detail, entry_name) for detail in error.errors()]
        raise ValueError(f"{file}: {'; '.join(problems)}") from None


def _problem(detail: Any, entry_name: EntryName) -> str:
    location = tuple(detail["loc"])
    entry, covered = entry_name(location)
    key = ".".join(str(part) for part in location[covered:])
    if detail["type"] == "extra_forbidden":
        text = f"unknown key {key!r}"
    elif detail["type"] == "missing":
        text = f"missing key {key!r}"
    elif detail["type"] == "value_error":  # a check of the entry as a whole (a model validator)
        text = f"{key}: {detail['ctx']['error']}" if key else str(detail["ctx"]["error"])
    else:
        text = f"{key or 'value'}: {detail['msg']}, not {detail['input']!r}"
    return f"{entry}: {text}" if entry else text
