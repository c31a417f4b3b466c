"""Rule files under ``extract/``: data the capture and extraction code compiles into matchers."""

from __future__ import annotations

import tomllib
from typing import Any

from hippograph.kernel.resources import read_text


def load_rules(name: str) -> dict[str, Any]:
    """The parsed ``extract/<name>.toml``.

    Not cached: the text already is (``read_text``), and each caller caches the immutable matchers it
    builds from this dict, so handing out one shared mutable dict would only invite accidents.
    """
    return tomllib.loads(read_text(f"extract/{name}.toml"))
