"""When a sentence says something held: its DATE spans (spaCy's NER) resolved against a reference
time, the episode's own (occurredAt), into a valid time with the precision the text gave.

dateparser does the calendar arithmetic ("yesterday", "two weeks ago", "next Tuesday", "May
2019") and says how precise its answer is (day, week, month, year); here that answer becomes the
period it names (May 2019: 1 May to 1 June). Seasons, which dateparser does not know, are mapped
to months (``extract/time.toml``), as are the words that make a span a start ("since"), an end
("until"), a range ("2015 to 2018") or a duration ("for three years").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import TYPE_CHECKING, Any

from dateparser.date import DateDataParser
from dateutil.relativedelta import relativedelta

from hippograph.extraction.model import Precision, When
from hippograph.extraction.schema import Schema, validated
from hippograph.kernel.rules import load_rules

if TYPE_CHECKING:  # spaCy loads with the extractor; recall reads past_words without it
    from spacy.matcher import Matcher
    from spacy.tokens import Span
    from spacy.vocab import Vocab

FILE = "extract/time.toml"
_DATE_LABELS = ("DATE", "TIME")  # TIME: "last night", "an hour ago"


@dataclass(frozen=True)
class Period:
    """A named stretch of time, [start, end)."""

    start: datetime
    end: datetime
    precision: Precision


class _Spans(Schema):
    start: list[str]
    end: list[str]
    duration: list[str]
    range: list[str]
    future: list[str]


class _Recall(Schema):
    past: list[str]
    not_time: list[str]


class _Pattern(Schema):
    pattern: list[dict[str, Any]]


class TimeRules(Schema):
    spans: _Spans
    seasons: dict[str, int]
    season_modifiers: dict[str, int]
    recall: _Recall
    patterns: list[_Pattern]


@cache
def rules() -> TimeRules:
    return validated(TimeRules, load_rules("time"), FILE, lambda _location: (None, 0))


@cache
def _matcher(vocab: Vocab) -> Matcher:
    from spacy.matcher import Matcher

    matcher = Matcher(vocab)
    matcher.add("TIME", [entry.pattern for entry in rules().patterns])
    return matcher


def time_spans(sentence: Span) -> list[Span]:
    """The sentence's time expressions, in order: the patterns' matches, and the DATE spans that
    overlap none (NER's spans run over: "the nursery next week")."""
    from spacy.util import filter_spans

    doc = sentence.doc
    matches = filter_spans(
        doc[sentence.start + start : sentence.start + end]
        for _, start, end in _matcher(doc.vocab)(doc[sentence.start : sentence.end].as_doc())
    )
    taken = {i for span in matches for i in range(span.start, span.end)}
    dates = [ent for ent in date_entities(sentence) if not taken.intersection(range(ent.start, ent.end))]
    return sorted([*matches, *dates], key=lambda span: span.start)


def date_entities(sentence: Span) -> list[Span]:
    """NER's DATE and TIME spans in the sentence, but for a number of one or two digits alone:
    NER tags some counts as dates ("we went again (44)"), and a number read alone is a year of the
    last century or a day of this month. A date that is one says more ("on the 12th", "in '44",
    "May 12"), and so does its span."""
    return [ent for ent in sentence.ents if ent.label_ in _DATE_LABELS and not _a_number_alone(ent)]


def _a_number_alone(span: Span) -> bool:
    words = [token for token in span if not token.is_punct]
    return len(words) == 1 and words[0].text.isdigit() and len(words[0].text) <= 2


@cache
def _season_pattern() -> re.Pattern[str]:
    known = rules()
    modifiers = "|".join(map(re.escape, known.season_modifiers))
    seasons = "|".join(map(re.escape, known.seasons))
    return re.compile(
        rf"^(?:(?:in|during|over|on)\s+)?(?:the\s+)?(?:(?P<modifier>{modifiers})\s+)?(?P<season>{seasons})"
        rf"(?:\s+(?:of\s+)?(?P<year>\d{{4}}))?$",
        re.IGNORECASE,
    )


@cache
def _range_pattern() -> re.Pattern[str]:
    separators = "|".join(re.escape(word) for word in rules().spans.range)
    return re.compile(rf"^(?:(?:from|between)\s+)?(?P<a>.+?)\s+(?:{separators}|and)\s+(?P<b>.+)$", re.IGNORECASE)


_LONGEST = 60  # a longer DATE span is a misparse, not a date
_PERIODS = {"day": Precision.DAY, "time": Precision.DAY, "part_of_day": Precision.DAY}


def resolve(text: str, reference: datetime, future: bool = False) -> Period | None:
    """The period ``text`` names, said at ``reference``; None when it names none we can place."""
    text = text.strip().strip(".,;")
    season = _season(text, reference, future)
    if season is not None:
        return season
    if not text or len(text) > _LONGEST:
        return None
    parsed = _parser(future, _naive(reference)).get_date_data(text)
    if parsed.date_obj is None:
        return None
    period = parsed.period or "day"
    precision = _PERIODS.get(period) or Precision(period)
    return _period(_aware(parsed.date_obj, reference), precision)


def _parser(future: bool, base: datetime) -> DateDataParser:
    return DateDataParser(
        languages=["en"],
        settings={
            "PREFER_DATES_FROM": "future" if future else "past",
            "RETURN_TIME_AS_PERIOD": True,
            "RELATIVE_BASE": base,
        },
    )


def _period(at: datetime, precision: Precision) -> Period:
    day = at.replace(hour=0, minute=0, second=0, microsecond=0)
    if precision is Precision.DAY:
        return Period(day, day + timedelta(days=1), precision)
    if precision is Precision.WEEK:
        monday = day - timedelta(days=day.weekday())
        return Period(monday, monday + timedelta(days=7), precision)
    if precision is Precision.MONTH:
        first = day.replace(day=1)
        return Period(first, first + relativedelta(months=1), precision)
    first = day.replace(month=1, day=1)
    return Period(first, first + relativedelta(years=1), Precision.YEAR)


def _season(text: str, reference: datetime, future: bool) -> Period | None:
    match = _season_pattern().match(text)
    if match is None:
        return None
    known = rules()
    month = known.seasons[match["season"].lower()]

    def instance(year: int) -> Period:
        start = reference.replace(year=year, month=month, day=1, hour=0, minute=0, second=0, microsecond=0)
        return Period(start, start + relativedelta(months=3), Precision.SEASON)

    if match["year"]:
        return instance(int(match["year"]))
    year = reference.year
    if match["modifier"] is None:  # "in spring": the latest begun, or in a future clause the next not over
        if future:
            while instance(year - 1).end > reference:
                year -= 1
            while instance(year).end <= reference:
                year += 1
        else:
            while instance(year).start > reference:
                year -= 1
        return instance(year)
    step = known.season_modifiers[match["modifier"].lower()]
    if step < 0:  # the latest one over by the reference time
        while instance(year).end > reference:
            year -= 1
    elif step > 0:  # the first one to start after it
        while instance(year).start <= reference:
            year += 1
    elif instance(year - 1).end > reference:  # this winter, said in January
        year -= 1
    return instance(year)


def sentence_time(sentence: Span, reference: datetime) -> When | None:
    """What ``sentence`` says of when its statement held, said at ``reference``."""
    spans = time_spans(sentence)
    if not spans:
        return None
    known = rules().spans
    future = _points_forward(sentence)
    point: Period | None = None
    start: Period | None = None
    end: Period | None = None
    duration: Span | None = None
    for span in spans:
        before = span.doc[span.start - 1].lower_ if span.start > sentence.start else ""
        if before in known.duration:
            duration = duration or span
            continue
        ends = _range(span.text, reference, future)
        if ends is not None:
            start, end = start or ends[0], end or ends[1]
            continue
        # "in three days": spaCy leaves the "in" out of the span, and without it a count is back in time.
        period = resolve(f"in {span.text}" if before == "in" else span.text, reference, future)
        if period is None:
            continue
        if before in known.start:
            start = start or period
        elif before in known.end or (start is not None and before in known.range):  # from 2015 to 2018
            end = end or period
        else:
            point = point or period
    text = ", ".join(span.text for span in spans)
    return _combine(point, start, end, duration, sentence, reference, text)


def _combine(
    point: Period | None,
    start: Period | None,
    end: Period | None,
    duration: Span | None,
    sentence: Span,
    reference: datetime,
    text: str,
) -> When | None:
    if start is not None or end is not None:
        first = start or point
        return When(
            first.start if first else None,
            end.end if end else None,
            (first or end or point).precision,  # type: ignore[union-attr]
            end is not None,
            text,
        )
    if duration is not None:
        if point is not None:
            after = resolve(f"in {duration.text}", point.start, future=True)  # the end, that long after
            if after is not None:
                return When(point.start, after.start, point.precision, True, text)
        elif _still_holds(sentence):
            since = resolve(f"{duration.text} ago", reference)  # the start, that long before
            if since is not None:
                return When(since.start, None, since.precision, False, text)
    if point is not None:
        return When(point.start, point.end, point.precision, False, text)
    return None


def _range(text: str, reference: datetime, future: bool) -> tuple[Period, Period] | None:
    match = _range_pattern().match(text.strip())
    if match is None:
        return None
    b = resolve(match["b"], reference, future)
    if b is None:
        return None
    a = resolve(match["a"], b.end - timedelta(seconds=1), future=False) or resolve(match["a"], reference, future)
    if a is None or a.start > b.start:
        return None
    return a, b


def _points_forward(sentence: Span) -> bool:
    words = rules().spans.future
    return any(token.lower_ in words for token in sentence)


class ParseNeeded(Exception):
    """The sentence's time depends on its parse, which its Doc was made without (``PARSE_LEFT_OUT``)."""


# Set in a Doc's user_data by a pass that left out the pipeline's parser (and took its sentences
# from the sentence recognizer): a rule that reads the parse raises ParseNeeded on it.
PARSE_LEFT_OUT = "hippograph.parse_left_out"


def _still_holds(sentence: Span) -> bool:
    """A present or present-perfect clause: "I have lived here for three years", "I'm a nurse"."""
    if sentence.doc.user_data.get(PARSE_LEFT_OUT):
        raise ParseNeeded
    root = sentence.root
    auxiliaries = [child for child in root.children if child.dep_ in ("aux", "auxpass")]
    if any(a.lemma_ == "have" and a.tag_ in ("VBP", "VBZ") for a in auxiliaries):
        return True
    return root.tag_ in ("VBP", "VBZ") or (root.lemma_ == "be" and root.tag_ in ("VBP", "VBZ"))


def _naive(at: datetime) -> datetime:
    return at.astimezone(UTC).replace(tzinfo=None) if at.tzinfo else at


def _aware(parsed: datetime, reference: datetime) -> datetime:
    return parsed.replace(tzinfo=UTC) if reference.tzinfo else parsed


def may_name_time(text: str) -> bool:
    """Whether ``text`` could name a time that ``resolve`` places: it holds a digit, a season, or a
    word of dateparser's English other than those ``not_time`` lists. dateparser places no text
    whose every word it does not know or ``not_time`` lists (tests/test_time_words.py proves those), so
    no span of a text without one is placed, whatever NER marks: recall then skips that pass."""
    lowered = text.lower()
    return any(character.isdigit() for character in lowered) or not _time_words().isdisjoint(
        re.findall(r"[^\W\d_]+", lowered)
    )


@cache
def _time_words() -> frozenset[str]:
    """Every word in dateparser's English data (names, units, relative phrases, the rewrites it
    applies first: "noon", "tonight", "one") and the seasons, but those that name no time."""
    from dateparser.languages.loader import default_loader

    words: set[str] = set()
    for text in _strings(default_loader.get_locale("en").info):
        # A regular expression's escapes ("\\s", "\\d") are not words.
        words.update(re.findall(r"[a-z]+", re.sub(r"\\.", " ", text.lower())))
    known = rules()
    return frozenset((words | set(known.seasons)) - set(known.recall.not_time))


# Fields of dateparser's data for a language that hold no word of a text.
_NOT_WORDS = frozenset({"name", "date_order", "sentence_splitter_group"})


def _strings(data: Any, *, top: bool = True) -> list[str]:
    """The strings of dateparser's data for a language: below its top level, which names its
    fields ("january", "relative-type"), keys too ("2 weeks ago", a rewrite's pattern)."""
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [
            text
            for key, value in data.items()
            if key not in _NOT_WORDS
            for text in (*(() if top else _strings(key, top=False)), *_strings(value, top=False))
        ]
    if isinstance(data, (list, tuple)):
        return [text for item in data for text in _strings(item, top=False)]
    return []


def past_words(text: str) -> bool:
    """Whether a question asks about the past in so many words ("used to", "before")."""
    lowered = f" {re.sub(r'[^a-z ]+', ' ', text.lower())} "
    return any(f" {phrase} " in lowered for phrase in rules().recall.past)
