"""Writes bench/data/time_gold.jsonl: chat sentences with a time expression, each said at a
reference time, and the valid time they state (seeded: the same file every run).

The gold is worked out here by calendar arithmetic of its own (dateutil's relativedelta and
plain date maths, one rule per family below), not by Hippograph's resolver, so the two can
disagree. The conventions the labels follow are those docs/memory-management.md states:

* a named period is [start, end) at its precision: "yesterday" a day, "two weeks ago" the Monday
  to Monday week that holds the day two weeks back, "four years ago" that calendar year, "last
  spring" a meteorological season (March to May), the latest to have ended by the reference time;
* "since X" starts at X and stays open (end null); "until X" ends where X ends, start unknown;
  "from A to B" runs from A's start to B's end; "in 2019 for three months" from 1 January 2019
  three months on; "I have been a nurse for ten years" from the period ten years back, open;
* a bare weekday or month is the last one in a past clause and the next one in a future clause;
* a sentence without a date, or one whose duration has nothing to count from ("I lived there for
  three years", said in the past tense), states no valid time: start, end and precision null.

Run: .venv/bin/python bench/data/time_gold_generate.py
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from dateutil.relativedelta import relativedelta

OUT = Path(__file__).with_name("time_gold.jsonl")
SEED = 32
PER_FAMILY = 12

REFERENCES = [
    datetime(2023, 5, 8, 13, 56, tzinfo=UTC),  # a Monday in spring
    datetime(2023, 1, 15, 9, 30, tzinfo=UTC),  # a Sunday in winter
    datetime(2022, 8, 20, 18, 5, tzinfo=UTC),  # a Saturday in summer
    datetime(2023, 12, 2, 11, 0, tzinfo=UTC),  # a Saturday in early winter
    datetime(2021, 3, 1, 8, 15, tzinfo=UTC),  # the first day of spring
    datetime(2023, 7, 4, 16, 40, tzinfo=UTC),  # a Tuesday in summer
    datetime(2022, 2, 10, 20, 20, tzinfo=UTC),  # a Thursday in late winter
    datetime(2023, 10, 31, 7, 45, tzinfo=UTC),  # a Tuesday in autumn
]
NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
MONTHS = [
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
]  # fmt: skip
SEASONS = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}

PAST = [
    "I went camping with the kids {t}.",
    "Melanie painted a lake sunrise {t}.",
    "We adopted a puppy from the shelter {t}.",
    "I ran a charity race for mental health {t}.",
    "My sister came to visit me {t}.",
    "Caroline went to an LGBTQ support group {t}.",
    "I moved to Boston {t}.",
    "Jon lost his job at the bank {t}.",
    "We took the boys to the science museum {t}.",
    "I signed up for a pottery class {t}.",
]
FUTURE = [
    "I'm going to a concert {t}.",
    "We will fly to Italy {t}.",
    "Caroline is going to start her counseling course {t}.",
    "I will visit my grandmother {t}.",
    "We're going to paint the nursery {t}.",
]
SINCE = [
    "I have lived in Denver since {t}.",
    "Caroline has worked at the shelter since {t}.",
    "I've been painting every weekend since {t}.",
    "We have been married since {t}.",
]
DURING = [
    "I have been a nurse for {t}.",
    "Caroline has lived in Boston for {t}.",
    "I've been learning the guitar for {t}.",
    "We have known each other for {t}.",
]

Gold = tuple[datetime | None, datetime | None, str | None]


def at(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def day(d: date) -> Gold:
    return at(d), at(d + timedelta(days=1)), "day"


def week(d: date) -> Gold:
    monday = d - timedelta(days=d.weekday())
    return at(monday), at(monday + timedelta(days=7)), "week"


def month(d: date) -> Gold:
    first = d.replace(day=1)
    return at(first), at(first + relativedelta(months=1)), "month"


def year(y: int) -> Gold:
    return at(date(y, 1, 1)), at(date(y + 1, 1, 1)), "year"


def season(name: str, y: int) -> Gold:
    start = date(y, SEASONS[name], 1)
    return at(start), at(start + relativedelta(months=3)), "season"


def last_season(name: str, ref: datetime) -> Gold:
    y = ref.year
    while season(name, y)[1] > ref:  # type: ignore[operator]
        y -= 1
    return season(name, y)


def this_season(name: str, ref: datetime) -> Gold:
    if season(name, ref.year - 1)[1] > ref:  # type: ignore[operator]
        return season(name, ref.year - 1)
    return season(name, ref.year)


def next_season(name: str, ref: datetime) -> Gold:
    y = ref.year
    while season(name, y)[0] <= ref:  # type: ignore[operator]
        y += 1
    return season(name, y)


def open_from(gold: Gold) -> Gold:
    return gold[0], None, gold[2]


Family = Callable[[random.Random, datetime], tuple[str, str, Gold]]


def families() -> dict[str, Family]:
    """Each family: (sentence template kind, expression, gold) for a reference time."""

    def yesterday(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        return "past", "yesterday", day(ref.date() - timedelta(days=1))

    def days_ago(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        n = r.choice([2, 3, 4, 5, 6, 10])
        words = NUMBERS.get(n, str(n))
        return "past", f"{words} days ago", day(ref.date() - timedelta(days=n))

    def last_week(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        return "past", "last week", week(ref.date() - timedelta(days=7))

    def weeks_ago(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        n = r.choice([2, 3])
        return "past", f"{NUMBERS[n]} weeks ago", week(ref.date() - timedelta(days=7 * n))

    def last_month(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        return "past", "last month", month(ref.date() - relativedelta(months=1))

    def months_ago(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        n = r.choice([2, 3, 4, 6])
        return "past", f"{NUMBERS[n]} months ago", month(ref.date() - relativedelta(months=n))

    def last_year(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        return "past", "last year", year(ref.year - 1)

    def years_ago(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        n = r.choice([2, 3, 4, 5])
        return "past", f"{NUMBERS[n]} years ago", year(ref.year - n)

    def in_year(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        y = ref.year - r.randint(1, 8)
        return "past", f"in {y}", year(y)

    def in_month_year(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        y = ref.year - r.randint(1, 3)
        m = r.randint(1, 12)
        return "past", f"in {MONTHS[m - 1]} {y}", month(date(y, m, 1))

    def on_date(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        d = ref.date() - timedelta(days=r.randint(20, 400))
        return "past", f"on {MONTHS[d.month - 1]} {d.day}, {d.year}", day(d)

    def bare_month(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        m = r.randint(1, 12)
        y = ref.year if m <= ref.month else ref.year - 1
        return "past", f"in {MONTHS[m - 1]}", month(date(y, m, 1))

    def last_weekday(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        w = r.randrange(7)
        back = (ref.weekday() - w) % 7 or 7
        return "past", f"last {WEEKDAYS[w]}", day(ref.date() - timedelta(days=back))

    def next_weekday(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        w = r.randrange(7)
        ahead = (w - ref.weekday()) % 7 or 7
        return "future", f"next {WEEKDAYS[w]}", day(ref.date() + timedelta(days=ahead))

    def tomorrow(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        return "future", "tomorrow", day(ref.date() + timedelta(days=1))

    def next_week(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        return "future", "next week", week(ref.date() + timedelta(days=7))

    def next_month(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        return "future", "next month", month(ref.date() + relativedelta(months=1))

    def next_year(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        return "future", "next year", year(ref.year + 1)

    def last_season_(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        name = r.choice(list(SEASONS))
        return "past", f"last {name}", last_season(name, ref)

    def this_season_(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        name = r.choice(list(SEASONS))
        return "future", f"this {name}", this_season(name, ref)

    def next_season_(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        name = r.choice(list(SEASONS))
        return "future", f"next {name}", next_season(name, ref)

    def season_of_year(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        name = r.choice(list(SEASONS))
        y = ref.year - r.randint(1, 4)
        return "past", f"in the {name} of {y}", season(name, y)

    def since_month(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        d = ref.date() - relativedelta(months=r.randint(2, 30))
        return "since", f"{MONTHS[d.month - 1]} {d.year}", open_from(month(d))

    def since_year(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        y = ref.year - r.randint(1, 12)
        return "since", f"{y}", open_from(year(y))

    def for_years(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        n = r.choice([2, 3, 4, 5, 6])
        return "during", f"{NUMBERS[n]} years", open_from(year(ref.year - n))

    def for_months(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        n = r.choice([2, 3, 4, 6])
        return "during", f"{NUMBERS[n]} months", open_from(month(ref.date() - relativedelta(months=n)))

    def from_to(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        a = ref.year - r.randint(4, 10)
        b = a + r.randint(1, 3)
        return "range", f"from {a} to {b}", (year(a)[0], year(b)[1], "year")

    def until_month(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        d = ref.date() - relativedelta(months=r.randint(2, 20))
        return "until", f"until {MONTHS[d.month - 1]} {d.year}", (None, month(d)[1], "month")

    def year_for_months(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        y = ref.year - r.randint(1, 6)
        n = r.choice([2, 3, 4, 6])
        start = date(y, 1, 1)
        return "past", f"in {y} for {NUMBERS[n]} months", (at(start), at(start + relativedelta(months=n)), "year")

    def undated(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        return "undated", "", (None, None, None)

    def past_duration(r: random.Random, ref: datetime) -> tuple[str, str, Gold]:
        n = r.choice([2, 3, 4, 5])
        return "lived", f"for {NUMBERS[n]} years", (None, None, None)

    return {name.rstrip("_"): fn for name, fn in locals().items() if callable(fn)}


UNDATED = [
    "I love painting landscapes with my kids.",
    "Caroline is a transgender woman who volunteers at the shelter.",
    "My favorite book is Charlotte's Web.",
    "We have two cats and a dog.",
    "Melanie works as a nurse at the local hospital.",
]
LIVED = [
    "I lived in Paris {t}.",
    "Caroline worked at the library {t}.",
    "We stayed with my parents {t}.",
]
RANGE = [
    "I worked at IBM {t}.",
    "Caroline lived in Sweden {t}.",
    "We ran a bakery in Boston {t}.",
]
UNTIL = [
    "I stayed at my mom's {t}.",
    "Caroline worked at the bakery {t}.",
    "We lived in Denver {t}.",
]


def sentence(r: random.Random, template_kind: str, expression: str) -> str:
    if template_kind == "undated":
        return r.choice(UNDATED)
    if template_kind == "past" and r.random() < 0.25 and not expression.startswith("in ") and "for" not in expression:
        body = r.choice(PAST).replace(" {t}.", ".")
        if body.split()[0] in ("We", "My"):
            body = body[0].lower() + body[1:]
        return f"{expression[0].upper()}{expression[1:]}, {body}"
    pool = {
        "past": PAST,
        "future": FUTURE,
        "since": SINCE,
        "during": DURING,
        "range": RANGE,
        "until": UNTIL,
        "lived": LIVED,
    }[template_kind]
    return r.choice(pool).format(t=expression)


def iso(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat().replace("+00:00", "Z")


def main() -> None:
    r = random.Random(SEED)
    rows: list[dict[str, Any]] = []
    for name, family in families().items():
        for index in range(PER_FAMILY):
            ref = REFERENCES[(index + len(rows)) % len(REFERENCES)]
            kind, expression, (start, end, precision) = family(r, ref)
            rows.append(
                {
                    "id": f"{name}-{index}",
                    "family": name,
                    "text": sentence(r, kind, expression),
                    "reference": iso(ref),
                    "start": iso(start),
                    "end": iso(end),
                    "precision": precision,
                }
            )
    OUT.write_text("".join(json.dumps(row) + "\n" for row in rows))
    print(f"wrote {len(rows)} sentences to {OUT}")


if __name__ == "__main__":
    main()
