"""A namespace's user aliases, spotted in its own episodes: names that no extraction rule knows
("the boss", "AR") become mentions of the entity they were given to."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from hippograph.extraction.model import EntityType, Extraction, Mention
from hippograph.store import Store
from hippograph.store.rows import ALIASES_OF_NAMESPACE

__all__ = ["KnownAlias", "namespace_aliases", "with_alias_mentions"]


@dataclass(frozen=True)
class KnownAlias:
    name: str  # the entity's name, which the mention resolves to
    type: EntityType
    pattern: re.Pattern[str]


def namespace_aliases(store: Store, namespace: str) -> list[KnownAlias]:
    rows = store.read(ALIASES_OF_NAMESPACE, namespace=namespace)
    # Longest first, so that "Acme Robotics EU" is found before "Acme Robotics".
    rows.sort(key=lambda row: -len(row["alias"]))
    return [
        KnownAlias(
            row["name"], EntityType(row["type"]), re.compile(rf"(?<!\w){re.escape(row['alias'])}(?!\w)", re.IGNORECASE)
        )
        for row in rows
    ]


def with_alias_mentions(extraction: Extraction, text: str, aliases: list[KnownAlias]) -> Extraction:
    """The extraction plus a mention for each alias occurrence no other mention covers. New
    mentions go last, so the indexes relations and facts hold stay valid."""
    if not aliases or not extraction.sentences:
        return extraction
    body_start = extraction.sentences[0].start  # after a "Speaker:" label
    taken = [(m.start, m.end) for m in extraction.mentions if m.role != "speaker"]
    added: list[Mention] = []
    for alias in aliases:
        for match in alias.pattern.finditer(text, body_start):
            start, end = match.span()
            if any(start < b and a < end for a, b in taken):
                continue
            taken.append((start, end))
            sentence = next((i for i, s in enumerate(extraction.sentences) if s.start <= start < s.end), -1)
            added.append(Mention(match.group(0), start, end, alias.type, alias.name, "alias", sentence=sentence))
    return replace(extraction, mentions=extraction.mentions + tuple(added)) if added else extraction
