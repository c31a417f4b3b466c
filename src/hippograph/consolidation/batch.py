"""A batch of consolidation's work: each leased episode with what was derived from it, and the
transaction its commit runs statements in. Below commit.py and the steps it calls (beliefs.py,
concepts.py), which all take these, so none of them imports another in a circle."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar, overload

from hippograph.embedding import Vector
from hippograph.extraction.model import Extraction
from hippograph.resolution.resolve import NameRef, Resolution
from hippograph.store import Transaction
from hippograph.store.rows import Query

__all__ = ["EpisodeWork", "Statements"]

_R = TypeVar("_R")


@dataclass(frozen=True)
class EpisodeWork:
    """One leased episode with everything derived from it, ready to commit."""

    id: str
    namespace: str
    occurred_at: datetime
    extraction: Extraction
    refs: tuple[NameRef, ...]  # one per mention
    resolutions: dict[NameRef, Resolution]
    statement_vectors: tuple[Vector | None, ...]  # one per fact candidate
    category: str  # its knowledge category as the text alone gives it (extraction/categories.py)
    hints: str = ""  # the words a question may find it by besides its own (extraction/hints.py)


class Statements:
    """The transaction, with new facts held back and created by one statement per run of them:
    most facts need no other statement, and a round trip costs more than creating one. Any other
    statement sends the held facts first, so that it sees the graph as if each had been created
    at once (a lookup finds them, a revision can supersede them).

    It also notes every fact whose support it changed (``supported``): their concept links follow
    their support (consolidation/concepts.py)."""

    def __init__(self, tx: Transaction) -> None:
        self._tx = tx
        self._facts: list[dict[str, Any]] = []
        self.supported: set[str] = set()

    @overload
    def run(self, name: Query[_R], **params: Any) -> list[_R]: ...
    @overload
    def run(self, name: str, **params: Any) -> list[dict[str, Any]]: ...
    def run(self, name: str | Query[Any], **params: Any) -> list[Any]:
        self.flush()
        self.supported.update(_supported(name if isinstance(name, str) else name.name, params))
        return self._tx.run(name, **params)

    def create_fact(
        self, episode_id: str, props: dict[str, Any], about: list[dict[str, str]], said: dict[str, Any]
    ) -> None:
        self._facts.append({"episode_id": episode_id, "props": props, "about": about, "said": said})
        self.supported.add(props["id"])

    def flush(self) -> None:
        if self._facts:
            self._tx.run("create_facts", facts=self._facts)
            self._facts = []


def _supported(name: str, params: dict[str, Any]) -> list[str]:
    """The facts a statement adds or moves SUPPORTED_BY edges of."""
    if name == "support_fact":
        return [params["fact_id"]]
    if name == "move_support":
        return [fact for move in params["moves"] for fact in (move["source"], move["target"])]
    return []
