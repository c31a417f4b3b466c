"""The type vote across an entity's mentions (``extract/entity_types.toml``, [vote]).

The statistical model types each mention on its own, and confuses organizations, places and
products ("Globex Corporation" a place in one sentence, an organization in the next). One weak guess
must not fix an entity's type: an entity keeps a weighted count of its mentions' types among those
the model confuses, and takes the type with the greatest count. Mentions of those types with the
same canonical name resolve to one entity whatever their types.

The outcome depends only on the multiset of mentions, never on their order: the counts are sums,
the winner is the greatest count with ties broken by the fixed order of [vote].types, and new
names of one key are minted under that same rule (``choose``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

from hippograph.kernel.rules import load_rules
from hippograph.store.rows import MergedEntity

__all__ = ["Statements", "Vote", "choose", "settle", "votable", "vote", "weight"]


class Statements(Protocol):
    """What ``settle`` needs of a transaction: running a named statement."""

    def run(self, name: str, **params: Any) -> list[dict[str, Any]]: ...


@dataclass(frozen=True, slots=True)
class Vote:
    types: tuple[str, ...]  # the types that vote, in tie-break order
    weights: dict[str, int]  # Mention.source -> weight
    default: int


@cache
def vote() -> Vote:
    data = load_rules("entity_types")["vote"]
    return Vote(tuple(data["types"]), dict(data["weights"]), data["default"])


def weight(source: str) -> int:
    settings = vote()
    return settings.weights.get(source, settings.default)


def votable(a: str, b: str) -> bool:
    """Whether two types of the same name may be one entity, which the vote then types."""
    types = vote().types
    return a in types and b in types


def choose(weights: Counter[str]) -> str:
    """The type with the greatest weight; a tie goes to the type listed first in [vote].types,
    then to the alphabetically first (types outside the vote)."""
    order = vote().types
    return min(weights, key=lambda kind: (-weights[kind], order.index(kind) if kind in order else len(order), kind))


def settle(tx: Statements, rows: Iterable[MergedEntity]) -> None:
    """Give each entity ``merge_entities`` touched the type its counts now choose. ``rows`` are
    that statement's rows (id, type, votes); an entity touched twice reports its later counts,
    which are the larger ones. A type another entity of the same name already holds is left."""
    latest: dict[str, MergedEntity] = {}
    for row in rows:
        votes = row.get("votes")
        if votes is None:
            continue
        known = latest.get(row["id"])
        if known is None or sum(votes) >= sum(known["votes"]):
            latest[row["id"]] = row
    changes = []
    types = vote().types
    for entity_id, row in sorted(latest.items()):
        if row["type"] not in types or not any(row["votes"]):
            continue
        winner = choose(Counter(dict(zip(types, row["votes"], strict=True))))
        if winner != row["type"]:
            changes.append({"id": entity_id, "from": row["type"], "to": winner})
    if changes:
        tx.run("retype_entities", changes=changes)
