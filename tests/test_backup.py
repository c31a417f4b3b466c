"""`hippograph export` and `hippograph import`: a consolidated LoCoMo conversation, with every kind
of thing a namespace holds, survives a round trip into a fresh store whole; a bad file writes nothing.

The original lives in a store of its own, behind a `hippograph serve` of its own: its indexes span
namespaces (the vector channel asks them for the nearest neighbours of all namespaces), so recall
in a namespace is only comparable between two stores that hold nothing else.
"""

from __future__ import annotations

import gzip
import json
import re
import subprocess
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from support.client import GraphQLClient
from support.own_store import store_of_its_own
from support.processes import REPO, hippograph_process, serve_process

from hippograph.backup.format import STORE_LABELS, STRUCTURAL_TYPES
from hippograph.embedding import FLOAT32_256, EncoderSpec
from hippograph.store.namespaces import NODE_LABELS

LOCOMO = REPO.parent / "shared" / "bench" / "locomo-dev.json"
NAMESPACE = "conv-26"
SESSIONS = 3  # 58 turns: consolidating them takes seconds
# Turns that make a relation end in valid time, two facts contradict each other, and one turn
# extends another (EXTENDS: the near-duplicate tiers are on for the original).
REVISIONS = [
    ("Melanie", "Melanie: I work at Google.", "2022-01-10T10:00:00Z"),
    ("Melanie", "Melanie: I left Google in the spring.", "2023-05-01T10:00:00Z"),
    ("Caroline", "Caroline: I live in Lisbon.", "2023-05-01T10:00:00Z"),
    ("Caroline", "Caroline: I don't live in Lisbon.", "2023-05-01T10:00:00Z"),
    ("Caroline", "Caroline ran 15 kilometres along the river on Wednesday morning.", "2023-05-03T10:00:00Z"),
    (
        "Caroline",
        "Caroline ran 15 kilometres along the river on Wednesday morning with a new pair of trail shoes.",
        "2023-05-03T10:05:00Z",
    ),
]
QUESTIONS = 40
SECRET = "sk-proj-Zq7vR2mK9pL4xN8bT3wY6cF1hJ5dG0aE"


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("backup")


class Server:
    """``hippograph serve`` on a store of its own: ``store`` points a process at it (under Neo4j a
    second Neo4j, support/own_store.py; the data directory on the embedded engine)."""

    def __init__(self, data_dir: Path, log: Path, store: dict[str, str], env: dict[str, str] | None = None) -> None:
        self.store = store
        self.process, self.url = serve_process(data_dir, log, {**store, **(env or {})})
        self.log = log
        self.gql = GraphQLClient(self.url)

    def stop(self) -> None:
        self.gql.http.close()
        self.process.terminate()
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def cli(*args: str, data_dir: Path, log: Path, store: dict[str, str] | None = None) -> tuple[int, str, str]:
    process = hippograph_process(*args, data_dir=data_dir, log=log, env=store)
    out, _ = process.communicate(timeout=600)
    return process.returncode, out.decode(), log.read_text(errors="replace")


# When the LoCoMo file is not beside the checkout (a fresh clone elsewhere), a conversation of the
# same shape stands in for it: the round trip is checked either way.
STAND_IN = {
    "session_1_date_time": "1:56 pm on 8 May, 2023",
    "session_1": [
        {"speaker": "Caroline", "text": "I went to a LGBTQ support group yesterday and it was so powerful."},
        {"speaker": "Melanie", "text": "That's great! I'm painting a lake sunrise for my art class."},
        {"speaker": "Caroline", "text": "I want to work in counseling and mental health."},
        {"speaker": "Melanie", "text": "My kids love camping at the beach with me."},
    ],
    "session_2_date_time": "1:14 pm on 25 May, 2023",
    "session_2": [
        {"speaker": "Caroline", "text": "I moved from Sweden four years ago and I use Python at work."},
        {"speaker": "Melanie", "text": "I ran a charity race for mental health last Saturday."},
        {"speaker": "Caroline", "text": "I'm reading Becoming Nicole by Amy Ellis Nutt."},
        {"speaker": "Melanie", "text": "We went to the Louvre in Paris with Caroline."},
    ],
}
STAND_IN_QUESTIONS = [
    "When did Caroline go to the LGBTQ support group?",
    "What did Melanie paint?",
    "What career does Caroline want?",
    "Where did Caroline move from?",
    "What is Caroline reading?",
    "When did Melanie run a charity race?",
]


def conversation() -> tuple[dict[str, Any], list[str], int]:
    """The turns by session, the questions, and how many sessions to capture."""
    if not LOCOMO.exists():
        return STAND_IN, STAND_IN_QUESTIONS, 2
    sample = json.loads(LOCOMO.read_text())[0]
    return sample["conversation"], [qa["question"] for qa in sample["qa"][:QUESTIONS]], SESSIONS


def turns() -> list[dict[str, Any]]:
    sessions, _, count = conversation()
    captures = []
    for number in range(1, count + 1):
        at = datetime.strptime(sessions[f"session_{number}_date_time"], "%I:%M %p on %d %B, %Y")
        for turn in sessions[f"session_{number}"]:
            captures.append(
                {
                    "namespace": NAMESPACE,
                    "content": f"{turn['speaker']}: {turn['text']}",
                    "agent": turn["speaker"],
                    "session": f"session_{number}",
                    "occurredAt": at.strftime("%Y-%m-%dT%H:%M:%SZ"),
                }
            )
    revisions = [
        {"namespace": NAMESPACE, "content": text, "agent": agent, "occurredAt": at} for agent, text, at in REVISIONS
    ]
    return captures + revisions


def questions() -> list[str]:
    return conversation()[1]


def fill(gql: GraphQLClient) -> None:
    """A consolidated conversation plus one of everything the lifecycle makes."""
    captures = turns()
    for start in range(0, len(captures), 32):
        gql.data("captureBatch", inputs=captures[start : start + 32])
    # A few episodes a request: each returns well within the client's timeout on a loaded machine.
    while True:
        report = gql.data("consolidate", namespace=NAMESPACE, limit=8)["consolidate"]
        assert report["failed"] == 0
        if report["remaining"] == 0:
            break
    # Corroboration: the same words from another agent.
    again = {**captures[0], "agent": "Observer"}
    assert gql.data("captureBatch", inputs=[again])["captureBatch"][0]["status"] == "CORROBORATED"
    # Explicit facts, one superseding another by key, one modified into a second version, one core.
    first = gql.data(
        "remember", input={"namespace": NAMESPACE, "statement": "Caroline lives in Boston.", "key": "caroline.home"}
    )
    second = gql.data(
        "remember", input={"namespace": NAMESPACE, "statement": "Caroline lives in Denver.", "key": "caroline.home"}
    )
    assert second["remember"]["superseded"] == [first["remember"]["fact"]["id"]]
    core = gql.data(
        "remember", input={"namespace": NAMESPACE, "statement": "Never share Melanie's address.", "kind": "CORE"}
    )
    gql.data(
        "modify",
        input={
            "namespace": NAMESPACE,
            "id": core["remember"]["fact"]["id"],
            "reason": "clearer",
            "statement": "Never share Melanie's home address.",
        },
    )
    # Pins, an alias, a forgotten episode.
    memories = gql.data(
        "recall", input={"namespace": NAMESPACE, "query": "painting", "limit": 10, "countAccess": False}
    )
    hit_ids = [hit["memory"]["id"] for hit in memories["recall"]["hits"] if hit["memory"]["__typename"] == "Episode"]
    gql.data("pin", id=hit_ids[0], namespace=NAMESPACE, reason="keep")
    gql.data("pin", id=second["remember"]["fact"]["id"], namespace=NAMESPACE, reason="keep")
    caroline = gql.data("entities", namespace=NAMESPACE, search="Caroline", first=1)["entities"]["edges"][0]["node"]
    gql.data("addAlias", namespace=NAMESPACE, entityId=caroline["id"], alias="Caro")
    preview = gql.data("forget", input={"namespace": NAMESPACE, "mode": "PREVIEW", "ids": [hit_ids[-1]]})["forget"]
    gql.data(
        "forget",
        input={
            "namespace": NAMESPACE,
            "mode": "EXECUTE",
            "ids": [hit_ids[-1]],
            "reason": "wrong",
            "token": preview["token"],
        },
    )
    # A session's summary, a skill with a second version and a bad pattern, and work items in a tree.
    gql.data("sessionSummary", namespace=NAMESPACE, session="session_1")
    skill = gql.data("saveSkill", namespace=NAMESPACE, skill="deploy", body="Run the tests, then tag.")["saveSkill"]
    gql.data("saveSkill", namespace=NAMESPACE, skill="deploy", body="Run the tests, wait for CI, then tag.")
    gql.data("addBadPattern", namespace=NAMESPACE, skillId=skill["id"], description="Tagging before CI is green.")
    release = gql.data("createWorkItem", namespace=NAMESPACE, title="Release 1.2")["createWorkItem"]
    gql.data("createWorkItem", namespace=NAMESPACE, title="Release notes", parentId=release["id"])


@pytest.fixture(scope="module")
def original_store(workdir: Path) -> Iterator[dict[str, str]]:
    with store_of_its_own(workdir / "original-store") as store:
        yield store


@pytest.fixture(scope="module")
def copy_store(workdir: Path) -> Iterator[dict[str, str]]:
    with store_of_its_own(workdir / "copy-store") as store:
        yield store


@pytest.fixture(scope="module")
def exported(workdir: Path, original_store: dict[str, str]) -> Iterator[tuple[Server, Path]]:
    """The original, filled and serving, and its export (taken beside the running server)."""
    # It consolidates in its own process, which loads the models anyway: derive processes would
    # each load them again (the suite's own server and test_browser's keyless one use them).
    server = Server(
        workdir / "original",
        workdir / "original.log",
        original_store,
        env={"HIPPOGRAPH_CONSOLIDATION_PROCESSES": "0", "HIPPOGRAPH_DEDUP_ENABLED": "true"},
    )
    try:
        fill(server.gql)
        target = workdir / "conv-26.jsonl"
        code, _, log = cli(
            "export",
            "--namespace",
            NAMESPACE,
            "-o",
            str(target),
            data_dir=workdir / "original",
            log=workdir / "export.log",
            store=original_store,
        )
        assert code == 0, log
        yield server, target
    finally:
        server.stop()


@pytest.fixture(scope="module")
def restored(workdir: Path, exported: tuple[Server, Path], copy_store: dict[str, str]) -> Iterator[Server]:
    """The export imported into a fresh store, serving."""
    code, out, log = cli(
        "import", str(exported[1]), data_dir=workdir / "copy", log=workdir / "import.log", store=copy_store
    )
    assert code == 0, log
    assert out.startswith("imported "), out
    server = Server(workdir / "copy", workdir / "copy.log", copy_store)
    yield server
    server.stop()


def census(server: Server, data_dir: Path, log: Path) -> dict[str, Any]:
    code, out, text = cli("status", "--namespace", NAMESPACE, data_dir=data_dir, log=log, store=server.store)
    assert code == 0, text
    status = json.loads(out)
    stats = server.gql.data("stats", namespace=NAMESPACE)["stats"]
    return {
        "nodes": status["nodes"],
        "relationships": status["relationships"],
        "embedding": status["embedding"],
        "stats": stats,
    }


@pytest.mark.process
def test_every_kind_of_thing_is_in_the_file(workdir: Path, exported: tuple[Server, Path]) -> None:
    records = [json.loads(line) for line in exported[1].read_text().splitlines()]
    labels = {r["node"] for r in records if "node" in r}
    types = {r["relationship"] for r in records if "relationship" in r}
    assert labels == set(NODE_LABELS)
    # PROMOTED_TO ends in another namespace, so an export of this one alone skips it.
    within = set(STRUCTURAL_TYPES) - {"PROMOTED_TO"}
    assert within <= types and types - set(STRUCTURAL_TYPES)  # and typed edges
    facts = [r["properties"] for r in records if r.get("node") == "Fact"]
    assert {f["origin"] for f in facts} == {"extracted", "explicit"}
    assert {f["status"] for f in facts} >= {"active", "superseded", "quarantined"}
    assert any(f["version"] == 2 for f in facts) and any(f.get("pinned") for f in facts)
    episodes = [r["properties"] for r in records if r.get("node") == "Episode"]
    assert any(len(e["observed_by"]) == 2 for e in episodes)
    assert any(e.get("forgotten_at") for e in episodes) and any(e.get("pinned") for e in episodes)
    assert all("$float32" in e["embedding"] for e in episodes)
    # The embedding the original's store records, which made every vector in the file.
    assert records[0]["embedding"] == census(exported[0], workdir / "original", workdir / "census-h.log")["embedding"]
    nodes, relationships = sum("node" in r for r in records), sum("relationship" in r for r in records)
    assert records[-1] == {"end": {"nodes": nodes, "relationships": relationships}}


@pytest.mark.process
def test_the_copy_is_the_original(workdir: Path, exported: tuple[Server, Path], restored: Server) -> None:
    original, export_file = exported
    before = census(original, workdir / "original", workdir / "census-a.log")
    after = census(restored, workdir / "copy", workdir / "census-b.log")
    assert before["nodes"]["Episode"] == len(turns()) and before["nodes"]["Fact"] > 5
    assert after == before
    # Every property of every node and relationship: the copy exports to the same records (here
    # every namespace of its store, which holds this one only, gzip-compressed).
    again = workdir / "copy.jsonl.gz"
    code, _, log = cli(
        "export", "-o", str(again), data_dir=workdir / "copy", log=workdir / "export-b.log", store=restored.store
    )
    assert code == 0, log
    with gzip.open(again, "rt", encoding="utf-8") as stream:
        copied = stream.read().splitlines()
    assert json.loads(copied[0])["namespaces"] == [NAMESPACE]
    # The new store took the file's embedding, and names it as the original did.
    assert json.loads(copied[0])["embedding"] == json.loads(export_file.read_text().splitlines()[0])["embedding"]
    assert before["embedding"] == after["embedding"]
    assert sorted(copied[1:]) == sorted(export_file.read_text().splitlines()[1:])


@pytest.mark.process
def test_the_copy_recalls_what_the_original_does(exported: tuple[Server, Path], restored: Server) -> None:
    original = exported[0]
    compared = 0
    for question in questions():
        request = {"namespace": NAMESPACE, "query": question, "limit": 10, "countAccess": False}
        answers = [server.gql.data("recall", input=request)["recall"] for server in (original, restored)]
        assert not answers[0]["degraded"] and not answers[1]["degraded"]
        want, got = ([hit["memory"]["id"] for hit in answer["hits"]] for answer in answers)
        assert got == want, question
        compared += bool(want)
    assert compared >= len(questions()) // 2


@pytest.mark.process
def test_a_namespace_the_store_holds_is_refused(workdir: Path, exported: tuple[Server, Path], restored: Server) -> None:
    code, _, log = cli(
        "import", str(exported[1]), data_dir=workdir / "copy", log=workdir / "twice.log", store=restored.store
    )
    assert code == 2
    assert f"hippograph import: the store already holds namespace '{NAMESPACE}'; nothing was imported" in log


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


def _import_fails(workdir: Path, name: str, lines: list[str]) -> str:
    source = workdir / f"{name}.jsonl"
    source.write_text("\n".join(lines) + "\n")
    data_dir = workdir / name
    code, _, log = cli("import", str(source), data_dir=data_dir, log=workdir / f"{name}.log")
    assert code == 2, log
    assert "Traceback" not in log and SECRET not in log
    [message] = [line for line in log.splitlines() if line.startswith("hippograph import:")]
    return message


@pytest.mark.process
@pytest.mark.parametrize(
    ("name", "damage", "says"),
    [
        ("json", lambda record: '{"node": "Episode", "properties": {"content": "' + SECRET, "not JSON"),
        (
            "namespace",
            lambda record: json.dumps({"node": "Episode", "properties": {"id": "x", "namespace": SECRET}}),
            "an Episode node of a namespace the header does not list",
        ),
        (
            "time",
            lambda record: json.dumps(
                {**record, "properties": {**record["properties"], "occurred_at": {"$datetime": SECRET}}}
            ),
            "property 'occurred_at' is not an ISO-8601 time",
        ),
        ("label", lambda record: json.dumps({**record, "node": SECRET}), "a node record is"),
    ],
)
@pytest.mark.process
def test_a_bad_line_is_named_and_nothing_is_imported(
    workdir: Path, exported: tuple[Server, Path], name: str, damage: Any, says: str
) -> None:
    lines = _lines(exported[1])
    number = next(i for i, line in enumerate(lines, start=1) if line.startswith('{"node":"Episode"'))
    lines[number - 1] = damage(json.loads(lines[number - 1]))
    message = _import_fails(workdir, f"bad-{name}", lines)
    assert message.startswith(f"hippograph import: line {number}: {says}"), message
    assert message.endswith("; nothing was imported")
    assert not (workdir / f"bad-{name}").exists()  # the file is checked before the store is even opened


@pytest.mark.process
def test_a_relationship_to_a_node_not_in_the_file_is_named(workdir: Path, exported: tuple[Server, Path]) -> None:
    lines = _lines(exported[1])
    number = next(i for i, line in enumerate(lines, start=1) if line.startswith('{"relationship":"NEXT"'))
    record = json.loads(lines[number - 1])
    lines[number - 1] = json.dumps({**record, "end": ["Episode", "01NOTANEPISODE"]})
    message = _import_fails(workdir, "dangling", lines)
    assert (
        message
        == f"hippograph import: line {number}: a NEXT relationship to an Episode node the file does not hold; nothing was imported"
    )


@pytest.mark.process
def test_a_truncated_file_is_refused(workdir: Path, exported: tuple[Server, Path]) -> None:
    message = _import_fails(workdir, "truncated", _lines(exported[1])[:-40])
    assert "no end record" in message


@pytest.mark.process
def test_a_failure_midway_removes_what_was_written(
    workdir: Path, exported: tuple[Server, Path], restored: Server
) -> None:
    """Into the copy's store, as another namespace whose facts keep the ids the copy holds: the
    sessions, episodes and entities go in, the facts collide, and all of it is removed again."""
    other = "conv-26-again"
    source = workdir / "collides.jsonl"
    source.write_text("\n".join(_as_namespace(_lines(exported[1]), other, keep_ids={"Fact"})) + "\n")
    code, _, log = cli(
        "import", str(source), data_dir=workdir / "copy", log=workdir / "collides.log", store=restored.store
    )
    assert code == 2, log
    assert "what it had written was removed, and the store is as it was" in log, log
    assert _holds_nothing(workdir, restored, other)


def _as_namespace(lines: list[str], other: str, keep_ids: set[str]) -> list[str]:
    """The export's records as namespace ``other``'s, every id but those of ``keep_ids``' labels
    changed."""
    renamed = []
    for line in lines:
        record = json.loads(line)
        if "format" in record:
            record["namespaces"] = [other]
        elif "node" in record:
            props = record["properties"]
            props["namespace" if record["node"] != "Namespace" else "name"] = other
            if record["node"] not in keep_ids | {"Namespace"}:
                props["id"] = "again-" + props["id"]
        elif "relationship" in record:
            for end in (record["start"], record["end"]):
                if end[0] not in keep_ids:
                    end[1] = "again-" + end[1]
        renamed.append(json.dumps(record))
    return renamed


def _holds_nothing(workdir: Path, server: Server, namespace: str) -> bool:
    code, out, log = cli(
        "status",
        "--namespace",
        namespace,
        data_dir=workdir / "copy",
        log=workdir / f"{namespace}-status.log",
        store=server.store,
    )
    assert code == 0, log
    return bool(json.loads(out)["nodes"] == {} and json.loads(out)["relationships"] == {})


@pytest.mark.process
@pytest.mark.parametrize("embedding", ["another", None])
def test_a_file_of_another_embedding_is_refused_and_nothing_is_written(
    workdir: Path, exported: tuple[Server, Path], restored: Server, embedding: str | None
) -> None:
    """Into the copy's store, which holds vectors of the original's embedding, as a namespace it
    does not hold: a file whose header names another embedding, and one from before the header
    named it (float32 weights cutting at 256 tokens, what every vector was made with then)."""
    other = f"conv-26-{embedding or 'old'}"
    lines = _as_namespace(_lines(exported[1]), other, keep_ids=set())
    first = json.loads(lines[0])
    stored = EncoderSpec.parse(first["embedding"])
    if embedding is None:
        del first["embedding"]
        named = FLOAT32_256
    else:
        named = FLOAT32_256 if stored != FLOAT32_256 else EncoderSpec(max_tokens=128, int8=True)
        first["embedding"] = named.name
    if named == stored:
        pytest.skip("the original's store embeds as exports from before the header did")
    source = workdir / f"{other}.jsonl"
    source.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    code, _, log = cli(
        "import", str(source), data_dir=workdir / "copy", log=workdir / f"{other}.log", store=restored.store
    )
    assert code == 2, log
    [message] = [line for line in log.splitlines() if line.startswith("hippograph import:")]
    assert message == (
        f"hippograph import: the file's vectors were made with the embedding {named.name} and this store's "
        f"with {stored.name}, and vectors of two embeddings do not compare: import the file into a new "
        "store, which takes its embedding; nothing was imported"
    )
    assert _holds_nothing(workdir, restored, other)


def test_the_export_knows_every_label_and_type_of_the_schema() -> None:
    """A label or relationship type added to the schema fails here until export and import know it."""
    neo4j = (REPO / "cypher" / "schema" / "neo4j.cypher").read_text()
    arcadedb = (REPO / "cypher" / "schema" / "arcadedb.sql").read_text()
    labels = set(re.findall(r"FOR \(n:(\w+)\)", neo4j)) | set(re.findall(r"CREATE VERTEX TYPE (\w+)", arcadedb))
    types = set(re.findall(r"CREATE EDGE TYPE (\w+)", arcadedb))
    assert labels == set(NODE_LABELS) | set(STORE_LABELS)
    assert types == set(STRUCTURAL_TYPES)
    created = set()
    for path in (REPO / "cypher").rglob("*.cypher"):
        created |= set(re.findall(r"(?:CREATE|MERGE) \(\w*:(\w+)", path.read_text()))
        created |= set(re.findall(r"(?:CREATE|MERGE) \([^)]*\)-\[\w*:([A-Z_]+)", path.read_text()))
    assert created - {"NODE_LABEL", "RELATION_TYPE"} <= set(NODE_LABELS) | set(STORE_LABELS) | set(STRUCTURAL_TYPES)
