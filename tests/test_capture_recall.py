"""Capture → recall round trips through HTTP GraphQL on the real store."""

from __future__ import annotations

from support.census import census
from support.client import GraphQLClient
from support.operations import capture_turns, history

from hippograph.runtime import Runtime

CAROLINE = [
    ("Caroline", "Caroline: I moved to Boston last spring for the new job.", "2023-05-08T13:56:00Z"),
    ("Melanie", "Melanie: I painted a lake at sunrise with my kids last weekend.", "2023-05-08T14:01:00Z"),
    ("Caroline", "Caroline: The LGBTQ support group meeting really helped me.", "2023-05-08T14:03:00Z"),
    ("Melanie", "Melanie: We went camping in the mountains and roasted marshmallows.", "2023-06-02T10:00:00Z"),
]


def capture_conversation(gql: GraphQLClient, namespace: str) -> list[str]:
    return capture_turns(gql, namespace, CAROLINE, session="session_1")


def test_capture_then_recall_finds_it_first(gql: GraphQLClient, namespace: str) -> None:
    ids = capture_conversation(gql, namespace)
    recall = gql.data("recall", input={"namespace": namespace, "query": "Where did Caroline move to?"})["recall"]
    top = recall["hits"][0]
    assert top["memory"]["id"] == ids[0]
    assert top["memory"]["__typename"] == "Episode"
    assert top["memory"]["occurredAt"] == "2023-05-08T13:56:00Z"
    assert top["memory"]["session"] == "session_1"
    # Found at once by its words, its embedding and its context (capture writes all three).
    assert {c["channel"] for c in top["channels"]} >= {"KEYWORD", "VECTOR", "CONTEXT"}
    assert all(c["rank"] >= 1 for c in top["channels"])
    assert ids[0] in recall["context"]
    assert recall["context"].count("<recalled-memory-context>") == 1
    stages = {t["stage"] for t in recall["timings"]}
    assert {"keyword", "vector", "fuse", "authorize", "hydrate"} <= stages
    assert recall["degraded"] == []


def test_vector_channel_finds_paraphrases_keyword_misses(gql: GraphQLClient, namespace: str) -> None:
    ids = capture_conversation(gql, namespace)
    recall = gql.data(
        "recall", input={"namespace": namespace, "query": "outdoor trip with a tent", "channels": ["VECTOR"]}
    )["recall"]
    assert recall["hits"][0]["memory"]["id"] == ids[3]


def test_recall_is_confined_to_its_namespace(gql: GraphQLClient, namespace: str) -> None:
    capture_conversation(gql, namespace)
    other = namespace + "-other"
    recall = gql.data("recall", input={"namespace": other, "query": "Caroline Boston"})["recall"]
    assert recall["hits"] == []


def test_filters_by_agent_session_time_and_tags(gql: GraphQLClient, namespace: str) -> None:
    ids = capture_conversation(gql, namespace)
    tagged = gql.data(
        "capture", input={"namespace": namespace, "content": "Caroline adopted a dog named Boston.", "tags": ["pets"]}
    )["capture"]["id"]

    def hit_ids(**filters: object) -> list[str]:
        body = gql.data("recall", input={"namespace": namespace, "query": "Caroline Melanie", "filters": filters})
        return [h["memory"]["id"] for h in body["recall"]["hits"]]

    # Every memory names Caroline or Melanie, so the keyword channel finds them all: each filter must
    # return exactly the memories it lets through. The tagged capture has no agent or session, and
    # occurred when it was captured.
    assert set(hit_ids()) == {*ids, tagged}
    assert set(hit_ids(agents=["Melanie"])) == {ids[1], ids[3]}
    assert set(hit_ids(sessions=["session_1"])) == set(ids)
    assert hit_ids(tags=["pets"]) == [tagged]
    assert set(hit_ids(until="2023-06-01T00:00:00Z")) == {ids[0], ids[1], ids[2]}
    assert set(hit_ids(since="2023-06-01T00:00:00Z")) == {ids[3], tagged}


def test_recall_counts_access_for_returned_hits_only(gql: GraphQLClient, namespace: str, runtime: Runtime) -> None:
    ids = capture_conversation(gql, namespace)
    gql.data("recall", input={"namespace": namespace, "query": "Boston move", "limit": 1})
    assert runtime.access.flush(timeout_s=60), "access counts are written just after the recall"
    counts = {i: gql.data("memory", id=i, namespace=namespace)["memory"]["accessCount"] for i in ids}
    assert sum(counts.values()) == 1


def test_memory_by_id_and_paging(gql: GraphQLClient, namespace: str, runtime: Runtime) -> None:
    ids = capture_conversation(gql, namespace)
    memory = gql.data("memory", id=ids[1], namespace=namespace)["memory"]
    assert memory["content"] == CAROLINE[1][1]
    assert memory["agent"] == "Melanie" and memory["role"] == "user" and memory["embedded"] is True

    seen: list[str] = []
    after = None
    while True:
        page = gql.data("memories", namespace=namespace, first=3, after=after)["memories"]
        seen += [edge["node"]["id"] for edge in page["edges"]]
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    assert seen == list(reversed(ids))
    assert census(runtime, namespace) == {"Episode": 4, "Session": 1, "History": 4}


def test_unknown_memory_is_not_found(gql: GraphQLClient, namespace: str) -> None:
    assert gql.error_code("memory", id="01NOPE", namespace=namespace) == "NOT_FOUND"


def test_a_batch_stores_each_turn_with_its_own_vector_once(
    gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    """A batch is embedded in a few padded passes, its texts reordered by length: each episode must
    still get its own text's vector, the one a query of that very text finds first. A turn repeated
    inside the batch is one episode."""
    turns = [f"{speaker}: {text}" for speaker, text, _ in CAROLINE] + [
        "Caroline: ok!",
        "Melanie: " + " ".join(["We painted, hiked, swam and read books by the lake all summer long."] * 3),
    ]
    inputs = [{"namespace": namespace, "content": content, "agent": "bench"} for content in [*turns, turns[1]]]
    outcomes = gql.data("captureBatch", inputs=inputs)["captureBatch"]
    assert [o["status"] for o in outcomes] == ["CREATED"] * len(turns) + ["DUPLICATE"]
    assert outcomes[-1]["id"] == outcomes[1]["id"]
    assert census(runtime, namespace)["Episode"] == len(turns)
    for content, outcome in zip(turns, outcomes):
        recall = gql.data(
            "recall", input={"namespace": namespace, "query": content, "channels": ["VECTOR"], "countAccess": False}
        )["recall"]
        top = recall["hits"][0]
        assert top["memory"]["id"] == outcome["id"], content
        [vector] = top["channels"]
        assert vector["score"] > 0.999, content


def test_a_batch_gets_ascending_ids_that_no_history_event_shares(gql: GraphQLClient, namespace: str) -> None:
    turns = [("Ana", f"Ana: note {i} about the kiln.", "2024-05-01T10:00:00Z") for i in range(20)]
    ids = capture_turns(gql, namespace, turns, session="s1")
    # Ties in time are broken by id in consolidation: the later turn must have the larger one.
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    events = [event["id"] for memory_id in ids for event in history(gql, namespace, memory_id)]
    assert len(events) == len(ids)
    assert not set(events) & set(ids)
