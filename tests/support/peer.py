"""Another process over the suite's store: it opens the store as a second server would (attached to
the embedded engine, or a driver of its own to Neo4j) and answers vector channel queries from its
own copy of the vectors, for tests of what one process sees of another's writes."""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from multiprocessing.connection import Connection

from hippograph.kernel.config import Settings
from hippograph.store import open_store
from hippograph.store.vectors import CONTEXTS, EPISODES, FACTS, Ranked, VectorQuery, vector_channels

_KINDS = {kind.exact_flag: kind for kind in (EPISODES, FACTS, CONTEXTS)}
ANSWER_WITHIN_S = 120


class Peer:
    def __init__(self, connection: Connection) -> None:
        self._connection = connection

    def vector_channel(
        self, namespace: str, embedding: Sequence[float], flags: Sequence[str], limit: int, min_cosine: float
    ) -> tuple[list[Ranked], int]:
        """The peer's answer, and the bytes of vectors it keeps after it."""
        self._connection.send((namespace, list(embedding), list(flags), limit, min_cosine))
        # A peer that died (its error is in the test's output) fails the test instead of hanging it.
        if not self._connection.poll(ANSWER_WITHIN_S):
            raise TimeoutError(f"the peer process gave no answer within {ANSWER_WITHIN_S} s")
        hits, kept = self._connection.recv()
        return [Ranked(*hit) for hit in hits], kept


@contextmanager
def peer(settings: Settings) -> Iterator[Peer]:
    ours, theirs = multiprocessing.get_context("spawn").Pipe()
    process = multiprocessing.get_context("spawn").Process(target=_serve, args=(settings, theirs), daemon=True)
    process.start()
    try:
        yield Peer(ours)
    finally:
        ours.send(None)
        process.join(30)
        if process.is_alive():
            process.kill()


def _serve(settings: Settings, connection: Connection) -> None:
    store = open_store(settings)
    try:
        while (request := connection.recv()) is not None:
            namespace, embedding, flags, limit, min_cosine = request
            query = VectorQuery(namespace, embedding, limit, min_cosine, tuple(_KINDS[flag] for flag in flags))
            [ranked] = vector_channels(store, [query]).rankings
            connection.send(([tuple(hit) for hit in ranked], store.vector_cache.nbytes))
    finally:
        store.close()
