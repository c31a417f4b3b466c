"""Session summaries: the choice on plain data (hippograph.summaries.extractive), and the kept
summary over real HTTP and the real store, as a session grows, loses a turn, or is erased."""

from __future__ import annotations

from collections import Counter
from typing import Any

from support.client import GraphQLClient
from support.operations import capture_turns

from hippograph.summaries.extractive import Budget, Source, summarize, word_counts

POTTERY = [
    ("Caroline", "Caroline: Hey Mel! How are you?", "2023-05-08T10:00:00Z"),
    ("Melanie", "Melanie: I signed up for a pottery class at the community center last week.", "2023-05-08T10:01:00Z"),
    ("Caroline", "Caroline: A pottery class sounds lovely, what do you make there?", "2023-05-08T10:02:00Z"),
    ("Melanie", "Melanie: Bowls mostly; the pottery teacher says my bowls are getting better.", "2023-05-08T10:03:00Z"),
    ("Caroline", "Caroline: Ok!", "2023-05-08T10:04:00Z"),
    ("Caroline", "Caroline: I am also planning a camping trip to the lake with my sister.", "2023-05-08T10:05:00Z"),
]


def sources(texts: list[str]) -> list[Source]:
    return [Source(f"t{i}", text) for i, text in enumerate(texts)]


def test_coverage_quotes_the_turn_that_carries_the_recurring_words_then_another_topic() -> None:
    """The pottery class is what the session keeps returning to; once a line holds it, a second
    line about the pottery adds less than the camping trip, which nothing quoted covers yet."""
    texts = [text for _, text, _ in POTTERY]
    lines = summarize(sources(texts), Budget(max_lines=2))
    assert [line.sources for line in lines] == [("t1",), ("t5",)]
    assert [line.text for line in lines] == [texts[1], texts[5]]


def test_short_turns_are_never_quoted_and_the_budget_holds() -> None:
    texts = [text for _, text, _ in POTTERY]
    lines = summarize(sources(texts), Budget(max_lines=8, max_chars=160))
    assert all(len(line.text.split()) >= Budget().min_words for line in lines)
    assert sum(len(line.text) for line in lines) <= 160 and lines


def test_word_counts_of_a_growing_session_add_up() -> None:
    texts = [text for _, text, _ in POTTERY]
    assert word_counts(texts[:3]) + word_counts(texts[3:]) == word_counts(texts)
    assert word_counts(["Pottery, pottery!"]) == Counter({"potteri": 1})


def test_nothing_to_quote_gives_no_lines() -> None:
    assert summarize(sources(["Hi!", "Ok.", "Sure thing"]), Budget()) == []


def summary(gql: GraphQLClient, namespace: str, session: str = "s1") -> dict[str, Any]:
    return gql.data("sessionSummary", namespace=namespace, session=session)["sessionSummary"]


def test_a_session_summary_cites_its_episodes_and_grows_with_the_session(gql: GraphQLClient, namespace: str) -> None:
    ids = capture_turns(gql, namespace, POTTERY[:4], session="s1")
    first = summary(gql, namespace)
    assert first["turns"] == 4 and first["lines"]
    by_id = dict(zip(ids, [text for _, text, _ in POTTERY[:4]], strict=True))
    for line in first["lines"]:
        [episode] = line["episodeIds"]
        assert line["text"] == by_id[episode]
    assert summary(gql, namespace)["updatedAt"] == first["updatedAt"]  # kept, not chosen again

    more = capture_turns(gql, namespace, POTTERY[4:], session="s1")
    grown = summary(gql, namespace)
    assert grown["turns"] == 6 and grown["updatedAt"] > first["updatedAt"]
    assert more[1] in {episode for line in grown["lines"] for episode in line["episodeIds"]}


def test_a_forgotten_or_erased_turn_leaves_the_summary(gql: GraphQLClient, namespace: str) -> None:
    ids = capture_turns(gql, namespace, POTTERY, session="s1")
    cited = [line["episodeIds"][0] for line in summary(gql, namespace)["lines"]]
    forgotten, erased = cited[0], cited[1]
    preview = gql.data("forget", input={"namespace": namespace, "ids": [forgotten], "mode": "PREVIEW"})["forget"]
    gql.data(
        "forget",
        input={"namespace": namespace, "ids": [forgotten], "mode": "EXECUTE", "token": preview["token"], "reason": "x"},
    )
    gql.data("erase", namespace=namespace, id=erased, reason="asked to")
    after = summary(gql, namespace)
    quoted = {episode for line in after["lines"] for episode in line["episodeIds"]}
    assert after["turns"] == len(ids) - 2 and forgotten not in quoted and erased not in quoted
    assert not any(line["text"] == POTTERY[ids.index(erased)][1] for line in after["lines"])


def test_an_unknown_session_is_not_found_and_another_namespace_sees_nothing(gql: GraphQLClient, namespace: str) -> None:
    capture_turns(gql, namespace, POTTERY, session="s1")
    assert gql.error_code("sessionSummary", namespace=namespace, session="s2") == "NOT_FOUND"
    assert gql.error_code("sessionSummary", namespace=f"{namespace}-b", session="s1") == "NOT_FOUND"
