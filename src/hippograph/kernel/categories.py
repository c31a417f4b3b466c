"""The knowledge categories' names, from ``extract/categories.toml``: what filters accept. How a
memory gets one is extraction's (extraction/categories.py)."""

from __future__ import annotations

import tomllib
from functools import cache
from typing import Any

from hippograph.kernel.resources import read_text

CATEGORIES_SOURCE = "extract/categories.toml"


@cache
def category_data() -> dict[str, Any]:
    return tomllib.loads(read_text(CATEGORIES_SOURCE))


def general_category() -> str:
    """The category of a memory no rule places: the only one consolidation ever refines."""
    return str(category_data()["default"])


def category_names() -> tuple[str, ...]:
    """Every category, the general one last."""
    return (*(str(item["name"]) for item in category_data()["category"]), general_category())
