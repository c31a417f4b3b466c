"""Recall's questions read in a process of their own: the names, concept keys and time they say.

A recall reads its question with spaCy while its channels run (a few milliseconds; NER too when a
word may name a time). In the server's process that pass holds the interpreter's lock, which the
channels' Python waits for: a question that names a time answered several milliseconds later than
one that names none. In a process of its own the pass runs on another core (docs/benchmarks.md,
"Reads without a transaction, and the questions read in a process of their own"). That process
holds its own copy of the pipeline; each answer is the one this process's pipeline would give, the
same pipeline given the same text. Until the process is up, and while one that died is replaced,
the server's own pipeline answers.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
import time
from collections.abc import Sequence
from datetime import datetime
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from hippograph.extraction.lazy import LazyExtractor
from hippograph.extraction.model import Extraction, Mention, Turn, When

__all__ = ["QuestionProcess"]

log = logging.getLogger(__name__)

# What the process answers: the reading of a question, and forgetting the questions it kept.
_METHODS = frozenset({"names", "concept_keys", "time_of", "forget_questions"})
_READY = "ready"
# Loading spaCy takes seconds; a process that is not ready by then is given up on.
_START_TIMEOUT_S = 300.0
# A process that died is replaced at most this often, so that one that cannot start does not
# load the pipeline over and over.
_RESTART_EVERY_S = 60.0
_STOP_TIMEOUT_S = 5.0


class QuestionProcess:
    """A ``TextExtractor`` whose question readings (names, concept keys, time) come from a process
    of its own, once ``start`` has started it; captures' extraction (``extract_many``) stays in this
    process's ``local`` extractor, which also answers whenever the process does not."""

    def __init__(self, local: LazyExtractor) -> None:
        self._local = local
        self._lock = threading.Lock()  # one call at a time on the pipe; guards the fields below
        self._connection: Connection | None = None
        self._process: BaseProcess | None = None
        self._wanted = False  # start was called: a process that dies is replaced
        self._starting = False
        self._closed = False
        self._started_at = float("-inf")

    def warm_up(self) -> None:
        self._local.warm_up()

    def start(self) -> None:
        """Start the process and wait until its pipeline has loaded (seconds). Spawning it imports
        the program's main module again, as ``multiprocessing`` does: a server calls this, from a
        main module that guards what it runs."""
        with self._lock:
            if self._closed or self._starting or self._process is not None:
                return
            self._wanted = self._starting = True
        self._start()

    def names(self, text: str) -> list[Mention]:
        return self._call("names", text)  # type: ignore[no-any-return]

    def concept_keys(self, text: str) -> list[str]:
        return self._call("concept_keys", text)  # type: ignore[no-any-return]

    def time_of(self, text: str, reference: datetime) -> When | None:
        return self._call("time_of", text, reference)  # type: ignore[no-any-return]

    def forget_questions(self) -> None:
        self._call("forget_questions")
        self._local.forget_questions()

    def extract_many(self, turns: Sequence[Turn], batch_size: int = 64) -> list[Extraction]:
        return self._local.extract_many(turns, batch_size)

    def close(self) -> None:
        """Stop the process: it reads the end of the pipe and exits."""
        with self._lock:
            self._closed = True
            connection, process = self._connection, self._process
            self._connection = self._process = None
        if connection is not None:
            connection.close()
        if process is not None:
            _stop(process)

    def _call(self, method: str, *args: Any) -> Any:
        with self._lock:
            connection = self._connection
            if connection is None:
                self._restart_if_due()
            else:
                try:
                    connection.send((method, args))
                    answered, value = connection.recv()
                except (EOFError, OSError):
                    self._lost()
                else:
                    if answered:
                        return value
                    raise value
        return getattr(self._local, method)(*args)

    def _start(self) -> None:
        """Start a process and wait until its pipeline has loaded; if it does not, the local
        extractor goes on answering."""
        self._started_at = time.monotonic()
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        process = context.Process(target=_serve, args=(theirs,), name="hippograph-questions", daemon=True)
        process.start()
        theirs.close()
        try:
            ready = ours.poll(_START_TIMEOUT_S) and ours.recv() == _READY
        except (EOFError, OSError):
            ready = False
        with self._lock:
            self._starting = False
            if ready and not self._closed:
                self._connection, self._process = ours, process
                return
        if not ready:
            log.warning("the question process did not start; recall reads its questions in this process")
        ours.close()
        _stop(process)

    def _lost(self) -> None:
        """The process died (its pipe broke): drop it, and start another. Called holding the lock."""
        log.warning("the question process exited; recall reads its questions in this process meanwhile")
        assert self._connection is not None and self._process is not None
        self._connection.close()
        self._process.kill()  # dead already, or alive past a broken pipe: of no use either way
        self._process.join()
        self._connection = self._process = None
        self._restart_if_due()

    def _restart_if_due(self) -> None:
        """Start a process in the background unless one is starting or was started within
        ``_RESTART_EVERY_S``. Called holding the lock."""
        due = time.monotonic() - self._started_at >= _RESTART_EVERY_S
        if self._wanted and due and not (self._closed or self._starting):
            self._starting = True
            threading.Thread(target=self._start, name="question-process-start", daemon=True).start()


def _stop(process: BaseProcess) -> None:
    process.join(_STOP_TIMEOUT_S)
    if process.is_alive():
        process.kill()
        process.join()


def _serve(connection: Connection) -> None:
    """The process: loads the pipeline, then answers each call until the server closes the pipe
    (or dies, which closes it too)."""
    extractor = LazyExtractor()
    extractor.warm_up()
    connection.send(_READY)
    while True:
        try:
            method, args = connection.recv()
        except EOFError:
            return
        if method not in _METHODS:
            connection.send((False, ValueError(f"no such call: {method}")))
            continue
        try:
            answer: tuple[bool, Any] = (True, getattr(extractor, method)(*args))
        except Exception as error:  # noqa: BLE001 - the caller gets it, as it would in process
            answer = (False, error)
        try:
            connection.send(answer)
        except Exception as error:  # noqa: BLE001 - an answer that does not pickle
            connection.send((False, RuntimeError(f"{method}: {error!r}")))
