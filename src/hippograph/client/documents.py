"""The GraphQL documents the client sends: one named operation per file in ``graphql/client/``,
with the fragments of ``fragments.graphql`` it spreads appended, so the server gets exactly the
text it needs (and caches it parsed)."""

from __future__ import annotations

import re
from functools import cache

from hippograph.kernel.resources import read_text

_SPREAD = re.compile(r"\.\.\.\s*([A-Za-z_]\w*)")
_FRAGMENT = re.compile(r"^fragment\s+(\w+)\s", re.MULTILINE)


@cache
def _fragments() -> dict[str, str]:
    text = read_text("graphql/client/fragments.graphql")
    starts = list(_FRAGMENT.finditer(text))
    ends = [match.start() for match in starts[1:]] + [len(text)]
    return {match.group(1): text[match.start() : end].strip() for match, end in zip(starts, ends, strict=True)}


@cache
def document(operation: str) -> str:
    """The text of ``graphql/client/<operation>.graphql`` with the fragments it uses, transitively."""
    body = read_text(f"graphql/client/{operation}.graphql").strip()
    fragments = _fragments()
    wanted: list[str] = []
    pending = _SPREAD.findall(body)
    while pending:
        name = pending.pop(0)
        if name in fragments and name not in wanted:
            wanted.append(name)
            pending.extend(_SPREAD.findall(fragments[name]))
    return "\n".join([body, *(fragments[name] for name in wanted)])
