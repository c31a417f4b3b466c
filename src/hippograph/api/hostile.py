"""Strings the store cannot hold, refused before any resolver sees them.

JSON may carry lone surrogates ("\\ud800"), which no UTF-8 encoder accepts, and NUL, which the
store and full-text index treat as an end of string. Both are checked here once for every variable,
key and literal, instead of in each resolver, and the error names the path to the value at fault.
"""

from __future__ import annotations

import re
from typing import Any

from graphql import GraphQLError, StringValueNode, ValidationRule

# Variables nest no deeper than this: JSON metadata is the only deep input, and each level costs a
# Python frame in whatever serializes it later.
MAX_DEPTH = 32

_UNFIT = re.compile("[\x00\ud800-\udfff]")


def unfit(text: str) -> str | None:
    """Why the string cannot be stored, or None."""
    found = _UNFIT.search(text)
    if found is None:
        return None
    char = found.group()
    return "contains NUL" if char == "\x00" else f"contains a lone surrogate (U+{ord(char):04X})"


def unfit_value(value: Any, root: str) -> str | None:
    """The first problem in a decoded JSON value, with the path to it (``$input.tags[2]``), or None."""
    # Iterative: a hostile body may nest as deep as the JSON decoder allows.
    stack: list[tuple[str, Any, int]] = [(root, value, 0)]
    while stack:
        path, item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return f"{path} nests deeper than {MAX_DEPTH} levels"
        if isinstance(item, str):
            if problem := unfit(item):
                return f"{path} {problem}"
        elif isinstance(item, dict):
            for key, child in item.items():
                if problem := unfit(key):
                    return f"{path} has a key that {problem}"
                stack.append((f"{path}.{key}", child, depth + 1))
        elif isinstance(item, list):
            stack.extend((f"{path}[{i}]", child, depth + 1) for i, child in enumerate(item))
    return None


class StorableStrings(ValidationRule):
    """String literals in the document obey the same rule as variables. The lexer already refuses
    surrogates; NUL, raw or escaped as \\u0000, it lets through."""

    def enter_string_value(self, node: StringValueNode, *_args: Any) -> None:
        if problem := unfit(node.value):
            self.report_error(GraphQLError(f"a string literal {problem}", node))
