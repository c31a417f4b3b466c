"""What recall decides on plain data (recall/service.py, channels.py, window.py): which requests are
refused and why; how many hits each channel fetches; which channels run, as the request asks and the
settings allow, and whether the query's names are read; what the keyword and hint channels search;
what the graph channel asks (its times, its walk's depth); and the question's time window. No store,
no model: test_capture_recall.py, test_recall_graph.py, test_time_window.py, test_hints.py,
test_context_channel.py and test_speaker_prior.py recall end to end. Fusion and scoring have theirs
in test_recall_scoring.py."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from hippograph.extraction.model import Precision, When
from hippograph.kernel.config import ActivationParams, Limits, RecallSettings, RelationStrength
from hippograph.kernel.errors import ErrorCode, HippographError
from hippograph.recall.channels import (
    ChannelPlan,
    activation,
    graph_query,
    hint_searches,
    plan_channels,
    supporting,
)
from hippograph.recall.modes import PRESETS
from hippograph.recall.request import Channel, Mode, RecallRequest, TimeWindow, WindowUse
from hippograph.recall.service import MIN_FETCH, fetch_size, validate_recall
from hippograph.recall.window import request_window
from hippograph.store.search import memory_searches, scoped_query

NOW = datetime(2026, 11, 29, 7, tzinfo=UTC)
LIMITS = Limits()
DEFAULTS = RecallSettings()
MAY = TimeWindow(datetime(2023, 5, 1, tzinfo=UTC), datetime(2023, 6, 1, tzinfo=UTC))


def test_a_well_formed_request_passes() -> None:
    validate_recall(LIMITS, RecallRequest("Where does Caroline live?", namespace="ns", limit=LIMITS.max_recall_limit))


@pytest.mark.parametrize(
    ("request_", "field"),
    [
        (RecallRequest("   "), "query"),
        (RecallRequest("x" * (LIMITS.max_query_chars + 1)), "query"),
        (RecallRequest("x", limit=0), "limit"),
        (RecallRequest("x", limit=LIMITS.max_recall_limit + 1), "limit"),
        (RecallRequest("x", channels=frozenset()), "channels"),
        (RecallRequest("x", during=TimeWindow(MAY.end, MAY.start)), "during"),
        (RecallRequest("x", during=TimeWindow(MAY.start, MAY.start)), "during"),
        (RecallRequest("x", namespace="no spaces allowed"), "namespace"),
    ],
)
def test_a_bad_request_is_refused_naming_its_field(request_: RecallRequest, field: str) -> None:
    with pytest.raises(HippographError) as refused:
        validate_recall(LIMITS, request_)
    assert (refused.value.code, refused.value.details["field"]) == (ErrorCode.BAD_INPUT, field)


def test_channels_fetch_twice_the_limit_and_never_fewer_than_the_floor() -> None:
    assert [fetch_size(limit) for limit in (1, MIN_FETCH // 2, 20, 100)] == [MIN_FETCH, MIN_FETCH, 40, 200]


def test_every_channel_runs_that_the_request_asks_for_and_the_settings_allow() -> None:
    assert plan_channels(frozenset(Channel), DEFAULTS) == ChannelPlan(
        keyword=True,
        hint=False,  # off by default
        searched=(Channel.VECTOR, Channel.CONTEXT),
        graph=True,
        reads_names=True,
    )
    on = RecallSettings(hint_channel=True, context_channel=False)
    assert plan_channels(frozenset(Channel), on) == ChannelPlan(True, True, (Channel.VECTOR,), True, True)
    # Context alone is one search too; vector and context always in that order.
    assert plan_channels(frozenset({Channel.CONTEXT}), DEFAULTS).searched == (Channel.CONTEXT,)
    assert plan_channels(frozenset({Channel.CONTEXT, Channel.VECTOR}), DEFAULTS).searched == (
        Channel.VECTOR,
        Channel.CONTEXT,
    )


def test_the_query_names_are_read_for_the_graph_channel_or_the_speaker_prior() -> None:
    keyword = frozenset({Channel.KEYWORD})
    no_prior = RecallSettings(named_speaker_factor=1.0)
    assert plan_channels(keyword, DEFAULTS).reads_names is True  # the prior (0.5) reads them
    assert plan_channels(keyword, no_prior).reads_names is False
    assert plan_channels(frozenset({Channel.GRAPH}), no_prior).reads_names is True
    plan = plan_channels(keyword, no_prior)
    assert (plan.hint, plan.searched, plan.graph) == (False, (), False)


def test_memory_searches_ask_episodes_by_stems_and_facts_by_words() -> None:
    question = "Who is researching ceramics?"
    assert memory_searches("ns", question) == [
        ("episode_stems", scoped_query("ns", "research ceram")),
        ("fact_search", scoped_query("ns", "researching ceramics")),
    ]
    assert hint_searches("ns", question) == [("episode_hints", scoped_query("ns", "research ceram"))]


def test_a_question_with_no_searchable_word_searches_nothing() -> None:
    for question in ("?!", "who is it"):
        assert memory_searches("ns", question) == []
        assert hint_searches("ns", question) == []


def test_a_hit_only_the_hint_channel_found_counts_as_ranked_lower() -> None:
    assert supporting(RecallSettings(hint_only_offset=7)) == {Channel.HINT: 7}


def test_a_mode_may_walk_the_graph_further_than_configured_never_less_far() -> None:
    assert activation(ActivationParams(depth=2), PRESETS[Mode.DEEP]).depth == 3
    assert activation(ActivationParams(depth=4), PRESETS[Mode.DEEP]).depth == 4
    shallow = activation(ActivationParams(depth=1, decay=0.5), PRESETS[Mode.BALANCED])
    assert (shallow.depth, shallow.decay) == (2, 0.5)


def test_the_graph_channel_asks_at_the_requests_times_or_now() -> None:
    relations = RelationStrength()
    now_query = graph_query(RecallRequest("x", namespace="ns"), NOW, 40, PRESETS[Mode.DEEP], DEFAULTS, relations)
    assert (now_query.namespace, now_query.as_of, now_query.known_at, now_query.limit) == ("ns", NOW, NOW, 40)
    assert (now_query.options, now_query.strength, now_query.activation.depth) == (DEFAULTS.graph, relations, 3)
    then, believed = datetime(2024, 1, 1, tzinfo=UTC), datetime(2025, 1, 1, tzinfo=UTC)
    past = graph_query(
        RecallRequest("x", as_of=then, known_at=believed), NOW, 30, PRESETS[Mode.BALANCED], DEFAULTS, relations
    )
    assert (past.as_of, past.known_at) == (then, believed)


def said(start: datetime | None, end: datetime | None) -> When:
    return When(start, end, Precision.MONTH, bounded=False, text="in May")


class Reader:
    """The question's time words as the extractor would say them: a fixed answer, and the calls
    it was asked."""

    def __init__(self, answer: When | None) -> None:
        self.answer = answer
        self.asked: list[tuple[str, datetime]] = []

    def __call__(self, text: str, reference: datetime) -> When | None:
        self.asked.append((text, reference))
        return self.answer


def test_the_questions_own_words_set_the_window_said_at_its_reference_time() -> None:
    reader = Reader(said(MAY.start, MAY.end))
    asked_at = datetime(2023, 12, 1, tzinfo=UTC)
    request = RecallRequest("What did Melanie do in May?", reference_time=asked_at)
    assert request_window(reader, "boost", request, NOW) == (MAY, WindowUse.BOOST)
    assert reader.asked == [("What did Melanie do in May?", asked_at)]
    request_window(reader, "boost", RecallRequest("What did Melanie do in May?"), NOW)
    assert reader.asked[-1][1] == NOW


def test_the_callers_window_and_use_come_first_and_off_reads_nothing() -> None:
    reader = Reader(said(MAY.start, MAY.end))
    june = TimeWindow(datetime(2023, 6, 1, tzinfo=UTC), None)
    assert request_window(reader, "boost", RecallRequest("x", during=june), NOW) == (june, WindowUse.BOOST)
    assert request_window(reader, "boost", RecallRequest("x", window=WindowUse.FILTER), NOW) == (
        MAY,
        WindowUse.FILTER,
    )
    assert request_window(reader, "off", RecallRequest("x", during=june), NOW) == (None, WindowUse.OFF)
    assert request_window(reader, "filter", RecallRequest("x", window=WindowUse.OFF), NOW) == (None, WindowUse.OFF)
    assert len(reader.asked) == 1  # only where the caller gave no window and the use was not off


def test_a_question_that_names_no_time_has_no_window() -> None:
    assert request_window(Reader(None), "boost", RecallRequest("x"), NOW) == (None, WindowUse.BOOST)
    assert request_window(Reader(said(None, None)), "boost", RecallRequest("x"), NOW) == (None, WindowUse.BOOST)
    open_ended = said(MAY.start, None)
    assert request_window(Reader(open_ended), "boost", RecallRequest("x"), NOW) == (
        TimeWindow(MAY.start, None),
        WindowUse.BOOST,
    )
