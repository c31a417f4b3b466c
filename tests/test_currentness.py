"""Currentness in recall, with the README's story: Caroline moved to Boston, then to Denver. The
Boston episode ranks below the Denver one however often it was recalled, and the context bundle
says it was superseded and by what; a question about the past gets it back as it was."""

from __future__ import annotations

from support.client import GraphQLClient
from support.operations import capture_turns, consolidate_over_api, recall_over_api

from hippograph.runtime import Runtime

STORY = [
    ("Caroline", "Caroline: I moved to Boston last spring.", "2023-05-08T13:56:00Z"),
    ("Caroline", "Caroline: I moved to Denver last week.", "2023-09-04T10:00:00Z"),
]
QUESTION = "Where did Caroline move to?"


def _episodes(result: dict) -> list[dict]:
    return [hit for hit in result["hits"] if hit["memory"]["__typename"] == "Episode"]


def test_a_superseded_memory_ranks_below_its_replacement_whatever_its_access(
    gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    boston, denver = capture_turns(gql, namespace, STORY, session="s1")
    consolidate_over_api(gql, namespace)
    for _ in range(6):  # the Boston episode recalled often: its access boost grows
        recall_over_api(gql, namespace, "Boston", limit=1, filters={"kinds": ["episode"]})
    assert runtime.access.flush(timeout_s=60)

    result = recall_over_api(gql, namespace, QUESTION, limit=5, explain=True, countAccess=False)
    order = [hit["memory"]["id"] for hit in _episodes(result)]
    assert boston in order and denver in order
    assert order.index(denver) < order.index(boston)
    [old] = [hit for hit in result["hits"] if hit["memory"]["id"] == boston]
    [new] = [hit for hit in result["hits"] if hit["memory"]["id"] == denver]
    assert old["score"] <= 0.5 * new["score"] + 1e-9  # at most half what replaced it
    # The bundle marks the line and names what replaced it.
    [line] = [line for line in result["context"].splitlines() if line.startswith(f"[{boston}]")]
    assert line.endswith(")") and "(superseded by [" in line
    replacement = line.rsplit("(superseded by [", 1)[1].rstrip("])")
    assert replacement in {hit["memory"]["id"] for hit in result["hits"]} | {denver}
    [new_line] = [line for line in result["context"].splitlines() if line.startswith(f"[{denver}]")]
    assert "superseded" not in new_line


def test_a_question_about_the_past_is_not_ranked_for_currentness(gql: GraphQLClient, namespace: str) -> None:
    boston, _denver = capture_turns(gql, namespace, STORY, session="s1")
    consolidate_over_api(gql, namespace)
    for question, options in (
        ("Where did Caroline use to live?", {}),
        ("Where did Caroline live before?", {}),
        (QUESTION, {"asOf": "2023-06-01T00:00:00Z"}),
    ):
        result = recall_over_api(gql, namespace, question, limit=5, explain=True, countAccess=False, **options)
        [old] = [hit for hit in result["hits"] if hit["memory"]["id"] == boston]
        assert old["explanation"]["statusFactor"] == 1, question
