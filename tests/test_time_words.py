"""A question that could name no time is not parsed for one (extraction/when.py, may_name_time):
proven against dateparser, which places every time recall reads, and against the whole spaCy
pass, which finds the spans it is given."""

from __future__ import annotations

from datetime import UTC, datetime
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hippograph.extraction.pipeline import Extractor
from hippograph.extraction.when import _time_words, may_name_time, resolve, rules, sentence_time

SAID = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
ARTICLES = {"a", "an"}  # dateparser reads either alone as January: see extract/time.toml

# Everyday words a question is made of, none of them a time word: with the not_time words, the
# material of texts that must name no time.
# fmt: off
WORDS = [
    "what", "did", "caroline", "melanie", "paint", "buy", "say", "go", "where", "who", "why", "how",
    "she", "he", "they", "her", "his", "their", "was", "were", "is", "are", "do", "does", "friend",
    "friends", "kids", "dog", "camping", "pottery", "school", "support", "group", "book", "books",
    "music", "favorite", "like", "love", "feel", "think", "beach", "park", "city", "trip", "family",
    "work", "job", "car", "house", "garden", "game",
]
# fmt: on


def test_the_words_that_name_no_time_name_none_alone_or_together() -> None:
    connectors = sorted(set(rules().recall.not_time) - ARTICLES)
    for size in (1, 2):
        for words in product(connectors, repeat=size):
            text = " ".join(words)
            assert resolve(text, SAID) is None, text


def test_an_article_alone_is_the_one_text_of_them_dateparser_places() -> None:
    # Why the articles are listed apart: dateparser's "1". NER does not mark an article alone.
    assert resolve("a", SAID) is not None
    assert resolve("a while", SAID) is None


def test_no_word_that_names_no_time_is_among_the_time_words() -> None:
    assert _time_words().isdisjoint(rules().recall.not_time)
    assert {"may", "noon", "tonight", "yesterday", "week", "one", "summer", "now"} <= _time_words()


@pytest.mark.parametrize(
    "question",
    [
        "What did Caroline do in May 2023?",
        "What did she paint last week?",
        "Where was he two weeks ago?",
        "What did they do yesterday?",
        "Who did she meet at noon?",
        "What is he doing tonight?",
        "Where did they go in the summer?",
        "What happened on 3/4?",
        "What did she do one Tuesday?",
    ],
)
def test_a_question_with_a_time_word_is_read(question: str) -> None:
    assert may_name_time(question)


@pytest.mark.parametrize(
    "question",
    [
        "What did Caroline paint?",
        "Where did she go after the party?",
        "Who is Melanie's friend?",
        "Why did he stop going to the support group before?",
    ],
)
def test_a_question_without_one_is_not(question: str) -> None:
    assert not may_name_time(question)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(WORDS + sorted(set(rules().recall.not_time) - ARTICLES)), min_size=1, max_size=4))
def test_dateparser_places_no_text_without_a_time_word(words: list[str]) -> None:
    text = " ".join(words)
    assert not may_name_time(text)
    assert resolve(text, SAID) is None


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from([*WORDS, *sorted(rules().recall.not_time)]), min_size=2, max_size=10),
    st.sampled_from(["?", ".", "!"]),
)
def test_the_whole_pass_finds_no_time_where_there_is_no_time_word(
    extractor: Extractor, words: list[str], end: str
) -> None:
    question = " ".join(words).capitalize() + end
    assert not may_name_time(question)
    times = [sentence_time(sentence, SAID) for sentence in extractor.nlp(question).sents]
    assert times == [None] * len(times)
    assert extractor.time_of(question, SAID) is None


def test_a_question_without_a_time_word_is_not_parsed(extractor: Extractor) -> None:
    extractor.forget_questions()
    question = "What did Caroline paint for the support group?"
    assert extractor.time_of(question, SAID) is None
    assert extractor._questions.made(question) is None
    timed = "What did Caroline paint last week?"
    assert extractor.time_of(timed, SAID) is not None
    assert extractor._questions.made(timed) is not None


@pytest.mark.parametrize(
    ("question", "holds"),
    [
        ("What did Caroline paint last week?", None),  # a point: read without the parse
        ("Has Caroline lived in Sweden for four years?", True),  # since four years ago: the parse says "has"
        ("Did Caroline live in Sweden for four years?", False),  # over, and when is not said
    ],
)
def test_a_question_is_read_without_the_parser_and_times_as_the_whole_pass_reads_them(
    extractor: Extractor, question: str, holds: bool | None
) -> None:
    """A question's pass leaves the parser out; a duration with no point asks whether its clause
    still holds, which only the parse says, and that question is read again by the whole pass."""
    extractor.forget_questions()
    said = extractor.time_of(question, SAID)
    whole = next(filter(None, (sentence_time(s, SAID) for s in extractor.nlp(question).sents)), None)
    assert said == whole
    assert (said is not None) == (holds is not False)
    if holds:
        assert said is not None and said.start == datetime(2019, 1, 1, tzinfo=UTC) and said.end is None
    made = extractor._questions.made(question)
    assert made is not None and not made.has_annotation("DEP") and len(list(made.sents)) == 1
