"""A process's copy of namespaces' vectors, so that recall scores a namespace exactly without the
server reading every vector of it again: that read is most of what a recall costs Neo4j
(docs/benchmarks.md).

Every statement that writes a vector numbers the memories it writes in their namespace's vector
stream, in commit order; one that deletes memories gives the namespace a new epoch
(store/vector_stamps.py). A recall reads the stream's epoch and number along with the counts it
reads anyway (scope_and_hits.cypher). When they are the copy's, the copy is current. Otherwise the
recall reads the memories numbered after the copy's number, or all of them under a new epoch,
and then scores. Any number of processes over one store thus score what the server would, each
from a copy of its own, and a namespace nobody writes to costs one read of a node.

A copy costs no read while its namespace is not written to, however large a share of the store
the namespace is, so recall scores every namespace of up to ``KEPT_UP_TO`` episodes from its
copy (store/vectors.py): one matrix product a kind, ~0.1 ms of CPU at 700 episodes, ~1 ms at
10,000 (docs/benchmarks.md). The copies are bounded: past ``max_bytes``, the least recently used
namespaces' copies go first, and a namespace whose copy alone would take more is searched through
the server.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import numpy.typing as npt

from hippograph.store.rows import VectorMemory

__all__ = ["ALL", "KEPT_UP_TO", "Changes", "Flag", "VectorCache"]

# The number before every memory's: read from it, the changes are the whole namespace.
ALL = -1

# The largest namespace, in episodes, whose vectors a process keeps: beyond it a search of the
# indexes costs less than scoring every vector (store/vectors.py), and a copy takes ~50 MB.
KEPT_UP_TO = 10_000

# The memories numbered after a number, with their vectors (vector_changes.cypher).
Changes = Callable[[int], Sequence[VectorMemory]]
# A kind of vector, named as vector_exact.cypher names it.
Flag = Literal["episodes", "facts", "contexts"]

_Array = npt.NDArray[np.float32]


class _Vectors:
    """One kind's unit vectors, by id: the rows of a matrix that grows by doubling."""

    def __init__(self) -> None:
        self._row_of: dict[str, int] = {}
        self._ids: list[str] = []
        self._matrix: _Array = np.zeros((0, 0), dtype=np.float32)
        self._live = np.zeros(0, dtype=bool)

    @property
    def nbytes(self) -> int:
        return int(self._matrix.nbytes + self._live.nbytes)

    @property
    def dimension(self) -> int | None:
        return self._matrix.shape[1] if self._ids else None

    def put(self, id: str, vector: Sequence[float] | None) -> bool:
        """Keep ``vector`` as ``id``'s (None: it has none now); False when its dimension is not the
        others'."""
        row = self._row_of.get(id)
        unit = None if vector is None else _unit(vector)
        if unit is not None and self._ids and unit.shape[0] != self._matrix.shape[1]:
            return False
        if row is None:
            if unit is None:
                return True
            row = self._append(id, unit.shape[0])
        if unit is None:
            self._live[row] = False
        else:
            self._matrix[row] = unit
            self._live[row] = True
        return True

    def _append(self, id: str, dimension: int) -> int:
        row = len(self._ids)
        if row == self._matrix.shape[0]:
            grown = np.zeros((max(64, 2 * row), dimension), dtype=np.float32)
            if row:
                grown[:row] = self._matrix
            live = np.zeros(grown.shape[0], dtype=bool)
            live[:row] = self._live
            self._matrix, self._live = grown, live
        self._ids.append(id)
        self._row_of[id] = row
        return row

    def nearest(self, query: _Array, min_cosine: float, limit: int) -> list[tuple[str, float]]:
        """The ``limit`` ids nearest to the unit vector ``query`` with a cosine of at least
        ``min_cosine``, best first, with their cosines."""
        count = len(self._ids)
        if count == 0 or limit <= 0:
            return []
        # Not ``@``: numpy's BLAS runs a product this size on threads that then spin for a while,
        # ~1.6 ms of CPU a product against einsum's ~0.25 (docs/benchmarks.md).
        cosines = np.einsum("ij,j->i", self._matrix[:count], query)
        rows = np.flatnonzero(self._live[:count] & (cosines >= min_cosine))
        if len(rows) > limit:
            rows = rows[np.argpartition(-cosines[rows], limit - 1)[:limit]]
        rows = rows[np.argsort(-cosines[rows], kind="stable")]
        return [(self._ids[row], float(cosines[row])) for row in rows]


def _no_vectors() -> dict[Flag, _Vectors]:
    return {"episodes": _Vectors(), "contexts": _Vectors(), "facts": _Vectors()}


@dataclass
class _Copy:
    """One namespace's vectors as of number ``seq`` of its stream under ``epoch``."""

    epoch: str
    seq: int = ALL
    kinds: dict[Flag, _Vectors] = field(default_factory=_no_vectors)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def nbytes(self) -> int:
        return sum(vectors.nbytes for vectors in self.kinds.values())

    def apply(self, memories: Sequence[VectorMemory]) -> bool:
        """False when a vector's dimension is not its kind's others'."""
        fits = True
        for memory in memories:
            if memory["label"] == "Fact":
                fits &= self.kinds["facts"].put(memory["id"], memory["embedding"])
            else:
                fits &= self.kinds["episodes"].put(memory["id"], memory["embedding"])
                fits &= self.kinds["contexts"].put(memory["id"], memory["context"])
        return fits


class VectorCache:
    """Namespaces' vectors, kept current by their streams' numbers; ``max_bytes`` 0 keeps none."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._copies: OrderedDict[str, _Copy] = OrderedDict()  # least recently used first
        self._sizes: dict[str, int] = {}
        self._bytes = 0
        # Namespaces scored by the server from now on: a copy alone took more than max_bytes, or
        # their vectors' dimensions disagreed (a copy would be read whole again on every recall).
        self._unkept: set[str] = set()
        self._lock = threading.Lock()

    @property
    def nbytes(self) -> int:
        return self._bytes

    def keeps(self, namespace: str, epoch: str | None, episodes: int) -> bool:
        """Whether recall scores this namespace from a copy: one with an epoch (vector_stamps.py),
        of up to KEPT_UP_TO episodes, whose copy fits within the bound."""
        return self.max_bytes > 0 and epoch is not None and episodes <= KEPT_UP_TO and namespace not in self._unkept

    def nearest(
        self,
        namespace: str,
        stream: tuple[str | None, int],
        changes: Changes,
        embedding: Sequence[float],
        min_cosine: float,
        limit: int,
        flags: frozenset[Flag],
    ) -> dict[Flag, list[tuple[str, float]]] | None:
        """Each kind's ``limit`` memories of the namespace nearest to ``embedding`` with a cosine
        of at least ``min_cosine``, best first, with their cosines; ``stream``: the namespace's
        (epoch, number) as just read. The copy reads ``changes`` first when it is behind. None when
        nothing is kept (no epoch yet, no room) or a dimension disagrees: the server scores then."""
        epoch, seq = stream
        query = _unit(embedding)
        if self.max_bytes <= 0 or epoch is None or query is None:
            return None
        copy = self._copy(namespace, epoch)
        with copy.lock:
            if copy.epoch != epoch:  # deleted memories, or imported ones: begin again
                copy.epoch, copy.seq, copy.kinds = epoch, ALL, _no_vectors()
            if copy.seq < seq:
                if not copy.apply(changes(copy.seq)):
                    self._give_up(namespace, copy)
                    return None
                copy.seq = seq
            if any(copy.kinds[flag].dimension not in (None, query.shape[0]) for flag in flags):
                return None
            found = {flag: copy.kinds[flag].nearest(query, min_cosine, limit) for flag in flags}
            size = copy.nbytes
        self._account(namespace, copy, size)
        return found

    def _copy(self, namespace: str, epoch: str) -> _Copy:
        with self._lock:
            copy = self._copies.get(namespace)
            if copy is None:
                copy = self._copies[namespace] = _Copy(epoch)
            self._copies.move_to_end(namespace)
            return copy

    def _account(self, namespace: str, copy: _Copy, size: int) -> None:
        """Count the copy's bytes, and drop the least recently used copies beyond the bound; a copy
        larger than the bound alone is dropped, and its namespace no longer kept."""
        with self._lock:
            if self._copies.get(namespace) is not copy:
                return  # dropped meanwhile
            if size > self.max_bytes:
                self._unkept.add(namespace)
            self._bytes += size - self._sizes.get(namespace, 0)
            self._sizes[namespace] = size
            while self._bytes > self.max_bytes and self._copies:
                oldest, _ = self._copies.popitem(last=False)
                self._bytes -= self._sizes.pop(oldest, 0)

    def _give_up(self, namespace: str, copy: _Copy) -> None:
        with self._lock:
            self._unkept.add(namespace)
            if self._copies.get(namespace) is copy:
                del self._copies[namespace]
                self._bytes -= self._sizes.pop(namespace, 0)


def _unit(vector: Sequence[float]) -> _Array | None:
    """``vector`` scaled to length 1, as float32; None for a zero vector, whose cosine with anything
    the servers leave undefined."""
    array = np.asarray(vector, dtype=np.float32)
    norm = float(np.linalg.norm(array))
    return array / norm if norm > 0 else None
