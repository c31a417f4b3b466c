"""Stemmed keyword search (kernel/text/stems.py): an episode's words meet the question's in
another form ("researching", "research"); a store from before stems gets them at start-up."""

from __future__ import annotations

from support.client import GraphQLClient
from support.operations import capture_turns, recall_over_api
from support.statements import run_test_statement

from hippograph.kernel.text.stems import stems
from hippograph.runtime import Runtime

AT = "2023-05-01T09:00:00Z"
TURNS = [
    ("Ann", "Ann: I have been researching the harbour's old maps all week.", AT),
    ("Ben", "Ben: The weather was lovely on Sunday.", "2023-05-01T09:01:00Z"),
]
QUESTION = "Who has done research lately?"


def keyword_hits(gql: GraphQLClient, namespace: str, query: str) -> list[str]:
    hits = recall_over_api(gql, namespace, query, channels=["KEYWORD"], countAccess=False)["hits"]
    return [hit["memory"]["id"] for hit in hits if hit["memory"]["__typename"] == "Episode"]


def test_a_question_meets_an_episode_in_another_form_of_its_words(
    gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    research, _ = capture_turns(gql, namespace, TURNS, session="s1")
    assert keyword_hits(gql, namespace, QUESTION) == [research]
    assert keyword_hits(gql, namespace, "maps he researched") == [research]


def test_episodes_stored_before_stems_get_them_at_start_up(
    gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    research, _ = capture_turns(gql, namespace, TURNS, session="s1")
    run_test_statement(runtime.settings, "forget_episode_stems", id=research)
    assert keyword_hits(gql, namespace, QUESTION) == []

    runtime.store.setup_schema()

    assert keyword_hits(gql, namespace, QUESTION) == [research]
    assert runtime.store.read("migration_done", id="episode_stems")


def test_stems_are_lower_cased_word_stems() -> None:
    assert stems("Researching, CAMPED; camping!") == "research camp camp"
    assert stems("") == ""


def test_stems_are_snowball_english_stems_of_the_case_folded_words() -> None:
    # Pinned from the pure-Python Snowball stemmer the C one replaced: stored stems must not change.
    text = "Researching generously: the Cafés were RUNNING, skies flying; naïve résumés, Straße 42 dying"
    assert stems(text) == "research generous the café were run sky fli naïv résumé strass 42 die"
