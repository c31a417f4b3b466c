"""The one way the package reads its data files: cypher/, extract/ and graphql/.

An installed wheel carries them under ``hippograph/_resources``; a source checkout (editable
install, tests) reads them from the top of the repository.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGED = Path(__file__).resolve().parents[1] / "_resources"
_CHECKOUT = Path(__file__).resolve().parents[3]


def resource_root() -> Path:
    """The directory holding ``cypher/``, ``extract/`` and ``graphql/``."""
    return _PACKAGED if _PACKAGED.is_dir() else _CHECKOUT


def resource_path(relative: str) -> Path:
    path = resource_root() / relative
    if not path.exists():
        raise FileNotFoundError(f"hippograph resource not found: {relative} (looked in {resource_root()})")
    return path


@cache
def read_text(relative: str) -> str:
    """The text of a resource such as ``"cypher/schema/neo4j.cypher"``; cached, they never change."""
    return resource_path(relative).read_text(encoding="utf-8")
