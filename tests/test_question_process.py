"""Recall's questions read in a process of their own (extraction/question_process.py): the same
answers as the server's own pipeline, read by the process, and read here while there is none."""

from __future__ import annotations

import dataclasses
import os
import signal
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from hippograph.api.queries import recall_parts
from hippograph.extraction import question_process
from hippograph.extraction.lazy import LazyExtractor
from hippograph.extraction.model import Mention, When
from hippograph.extraction.pipeline import Extractor
from hippograph.extraction.question_process import QuestionProcess
from hippograph.recall.request import RecallRequest
from hippograph.recall.service import recall
from hippograph.runtime import Runtime, warm_up_in_background

SAID = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
QUESTIONS = [
    "What did Caroline paint last week?",
    "Where did Melanie go camping in July 2023?",
    "Who is Jon's friend from the Porto Chamber Orchestra?",
    # A duration with no point in time: read again by the whole pipeline (when.py, ParseNeeded).
    "Has Nate lived in Boston for three years?",
    "How long ago was Caroline's 18th birthday?",
    "What does Gina think of Postgres?",
]


class _Refusing(LazyExtractor):
    """Loads its pipeline, but reads no question itself: what is answered came from the process."""

    def names(self, text: str) -> list[Mention]:
        raise AssertionError("read in the server's process")

    def concept_keys(self, text: str) -> list[str]:
        raise AssertionError("read in the server's process")

    def time_of(self, text: str, reference: datetime) -> When | None:
        raise AssertionError("read in the server's process")


@pytest.fixture
def reader() -> Iterator[QuestionProcess]:
    process = QuestionProcess(LazyExtractor())
    process.start()
    yield process
    process.close()


def _pid(reader: object) -> int | None:
    assert isinstance(reader, QuestionProcess)
    return None if reader._process is None else reader._process.pid


def test_the_process_reads_each_question_as_the_server_would(extractor: Extractor) -> None:
    reader = QuestionProcess(_Refusing())
    reader.start()
    try:
        for question in QUESTIONS:
            assert reader.names(question) == extractor.names(question), question
            assert reader.concept_keys(question) == extractor.concept_keys(question), question
            assert reader.time_of(question, SAID) == extractor.time_of(question, SAID), question
        # Not answers of nothing: each kind was read somewhere.
        assert any(reader.time_of(question, SAID) is not None for question in QUESTIONS)
        assert all(reader.names(question) for question in QUESTIONS)
        assert any(reader.concept_keys(question) for question in QUESTIONS)
    finally:
        reader.close()


def test_a_question_is_read_here_until_the_process_has_started(extractor: Extractor) -> None:
    reader = QuestionProcess(LazyExtractor())
    try:
        assert _pid(reader) is None
        question = QUESTIONS[0]
        assert reader.time_of(question, SAID) == extractor.time_of(question, SAID) is not None
        reader.warm_up()
        assert reader.time_of(question, SAID) == extractor.time_of(question, SAID)
        assert _pid(reader) is None  # neither a call nor loading the models starts one: start does
    finally:
        reader.close()


def test_a_process_that_dies_is_replaced_and_meanwhile_the_server_reads(
    reader: QuestionProcess, extractor: Extractor, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(question_process, "_RESTART_EVERY_S", 0.0)
    first = _pid(reader)
    assert first is not None
    os.kill(first, signal.SIGKILL)
    question = QUESTIONS[1]
    # The call that finds the pipe broken is answered here, and starts another process.
    assert reader.names(question) == extractor.names(question)
    deadline = time.monotonic() + 120
    while _pid(reader) in (None, first) and time.monotonic() < deadline:
        assert reader.time_of(question, SAID) == extractor.time_of(question, SAID)
        time.sleep(0.2)
    second = _pid(reader)
    assert second not in (None, first)
    assert reader.time_of(question, SAID) == extractor.time_of(question, SAID) is not None


def test_closing_stops_the_process_and_the_server_reads_on(reader: QuestionProcess, extractor: Extractor) -> None:
    process = reader._process
    assert process is not None and process.is_alive()
    reader.close()
    assert not process.is_alive()
    assert process.exitcode == 0  # it read the end of the pipe and returned
    question = QUESTIONS[2]
    assert reader.names(question) == extractor.names(question)
    reader.start()
    assert _pid(reader) is None  # closed for good


def test_a_server_starts_the_process_once_its_models_have_loaded(runtime: Runtime) -> None:
    served = dataclasses.replace(runtime, extractor=QuestionProcess(_Refusing()), models_loaded=threading.Event())
    try:
        warm_up_in_background(served)
        assert served.models_loaded.wait(300)
        deadline = time.monotonic() + 120
        while _pid(served.extractor) is None and time.monotonic() < deadline:
            time.sleep(0.2)
        # The recall's names, concepts and time came from the process: its local reader refuses.
        result = recall(
            recall_parts(served),
            RecallRequest("What did Caroline paint last week?", "question-process", 5, reference_time=SAID),
        )
        assert result.degraded == []
    finally:
        assert isinstance(served.extractor, QuestionProcess)
        served.extractor.close()
