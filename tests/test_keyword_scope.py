"""The keyword channel asks the full-text index for one namespace's best hits only: other
namespaces can neither leak in nor crowd a namespace's own hits out of the top of the index; the
hits come back best first."""

from __future__ import annotations

from typing import Any

from support.client import GraphQLClient
from support.operations import capture_turns, recall_over_api
from support.statements import run_test_statement

from hippograph.runtime import Runtime
from hippograph.store.search import memory_searches

AT = "2024-05-01T10:00:00Z"


def keyword_hits(gql: GraphQLClient, namespace: str, query: str, limit: int = 5) -> list[str]:
    hits = recall_over_api(gql, namespace, query, channels=["KEYWORD"], limit=limit, countAccess=False)["hits"]
    return [hit["memory"]["id"] for hit in hits]


def test_a_namespace_keeps_its_hits_however_many_better_ones_others_have(gql: GraphQLClient, namespace: str) -> None:
    # Names that analyzers would make into the same words: "team-a", "Team_A" → "team", "a".
    crowded, quiet = f"{namespace}-team-a", f"{namespace}-Team_A"
    capture_turns(gql, crowded, [("Ann", f"Kayak kayak kayak trip number {i}.", AT) for i in range(60)], "s1")
    [mine] = capture_turns(gql, quiet, [("Bo", "We went on a kayak trip once.", AT)], "s1")

    assert keyword_hits(gql, quiet, "kayak trip") == [mine]
    crowded_hits = keyword_hits(gql, crowded, "kayak trip")
    assert len(crowded_hits) == 5 and mine not in crowded_hits


def test_memories_from_before_namespace_tokens_get_one_at_start_up(
    runtime: Runtime, gql: GraphQLClient, namespace: str
) -> None:
    [old] = capture_turns(gql, namespace, [("Cy", "The lighthouse keeper retired.", AT)], "s1")
    # As a store written by an earlier version has it: no token, so the keyword channel misses it,
    # and no record that the migration ran.
    run_test_statement(runtime.settings, "forget_namespace_token", id=old)
    assert keyword_hits(gql, namespace, "lighthouse keeper") == []

    runtime.store.setup_schema()

    assert keyword_hits(gql, namespace, "lighthouse keeper") == [old]
    assert runtime.store.read("migration_done", id="namespace_tokens")


def test_the_search_statement_returns_its_rows_best_first_in_one_list(
    runtime: Runtime, gql: GraphQLClient, namespace: str
) -> None:
    texts = ["kayak", "kayak kayak kayak", "kayak kayak"]
    ids = capture_turns(gql, namespace, [("Ann", f"{text} lake", AT) for text in texts], "s1")

    def search(words: str) -> list[dict[str, Any]]:
        listed = [{"index": runtime.store.index(i), "query": q} for i, q in memory_searches(namespace, words)]
        return runtime.store.read("scope_and_hits", searches=listed, namespace=namespace, limit=5)[0]["hits"]

    rows = search("kayak")
    assert [row["id"] for row in rows] == [ids[1], ids[2], ids[0]]
    assert rows[0]["score"] > rows[1]["score"] > rows[2]["score"]
    assert {row["label"] for row in rows} == {"Episode"}
    assert search("canoe") == []
