"""What a write transaction does, before it commits, for the processes that keep copies of
namespaces' vectors (store/vector_cache.py):

* the episodes and facts whose vectors it wrote (created, changed or cleared) take the next number
  of their namespace's vector stream (stamp_vectors.cypher);
* the namespaces from which it deleted episodes or facts, or into which it imported them with
  numbers from another store, take a new epoch, and every copy of them is read again whole
  (reset_vectors.cypher).

Every statement that writes vectors is listed here (``_WRITERS``) with what it writes, so no
caller can forget the numbers: ``Transaction.run`` notes each one it runs, and the store numbers
them in the same transaction, late, so that a namespace's stream stays locked only until the
commit: before the transaction records its memory events (store/changes.py), and before it
commits what was written after those. tests/test_vector_cache.py fails on a statement in cypher/
that writes vectors and is not listed.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["VECTOR_WRITERS", "VectorWrites", "new_epoch"]

_MEMORY_LABELS = frozenset({"Episode", "Fact"})


@dataclass
class VectorWrites:
    """The vectors one transaction has written so far."""

    episodes: set[str] = field(default_factory=set)
    facts: set[str] = field(default_factory=set)
    reset: set[str] = field(default_factory=set)  # namespaces

    def note(
        self, name: str, params: Mapping[str, Any], labels: Mapping[str, str], rows: Sequence[Mapping[str, Any]]
    ) -> None:
        """What statement ``name`` wrote, run with ``params`` and ``labels``, answering ``rows``."""
        written = _WRITERS.get(name.rpartition("/")[2])  # a statement may be named with its directory
        if written is not None:
            written(self, params, labels, rows)

    def number(self, run: Callable[..., object]) -> None:
        """Number what was written so far, through ``run(name, **params)`` in the transaction."""
        if self.episodes or self.facts:
            run("stamp_vectors", episodes=sorted(self.episodes), facts=sorted(self.facts), epoch=new_epoch())
        if self.reset:
            run("reset_vectors", namespaces=sorted(self.reset), epoch=new_epoch())
        self.episodes, self.facts, self.reset = set(), set(), set()


def new_epoch() -> str:
    return uuid.uuid4().hex


_Writer = Callable[[VectorWrites, Mapping[str, Any], Mapping[str, str], Sequence[Mapping[str, Any]]], None]


def _episodes_in_rows(w: VectorWrites, params: Mapping[str, Any], _: Mapping[str, str], __: object) -> None:
    w.episodes.update(row["id"] for row in params["rows"])


def _episodes_answered(w: VectorWrites, _: object, __: object, rows: Sequence[Mapping[str, Any]]) -> None:
    w.episodes.update(row["id"] for row in rows)


def _new_facts(w: VectorWrites, params: Mapping[str, Any], _: object, __: object) -> None:
    w.facts.update(fact["props"]["id"] for fact in params["facts"])


def _new_fact(w: VectorWrites, params: Mapping[str, Any], _: object, __: object) -> None:
    w.facts.add(params["props"]["id"])


def _supported_fact(w: VectorWrites, params: Mapping[str, Any], _: object, __: object) -> None:
    if params["embedding"] is not None:
        w.facts.add(params["fact_id"])


def _revised_facts(w: VectorWrites, params: Mapping[str, Any], _: object, __: object) -> None:
    w.facts.update(fact["id"] for fact in params["facts"] if fact.get("embedding") is not None)


def _deleted(w: VectorWrites, params: Mapping[str, Any], labels: Mapping[str, str], __: object) -> None:
    if labels.get("NODE_LABEL", "Episode") in _MEMORY_LABELS:
        w.reset.add(params["namespace"])


def _imported(w: VectorWrites, params: Mapping[str, Any], labels: Mapping[str, str], __: object) -> None:
    if labels["NODE_LABEL"] == "Namespace":
        w.reset.update(row["name"] for row in params["rows"])
    elif labels["NODE_LABEL"] in _MEMORY_LABELS:
        w.reset.update(row["namespace"] for row in params["rows"] if row.get("namespace") is not None)


_WRITERS: dict[str, _Writer] = {
    "create_episodes": _episodes_in_rows,
    "set_episode_embeddings": _episodes_in_rows,
    "set_context_embeddings": _episodes_in_rows,
    "clear_following_contexts": _episodes_answered,
    "create_facts": _new_facts,
    "create_explicit_fact": _new_fact,
    "create_fact_version": _new_fact,
    "create_promoted_fact": _new_fact,
    "support_fact": _supported_fact,
    "revise_facts": _revised_facts,
    "delete_episode": _deleted,
    "delete_facts": _deleted,
    "delete_namespace_nodes": _deleted,
    "import_nodes": _imported,
}
# The statements that write episodes' or facts' vectors, or create or delete those memories.
VECTOR_WRITERS = frozenset(_WRITERS)
