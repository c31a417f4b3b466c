"""The export format's values: every stored type comes back as it went out, and a value the format
has no form for is refused without being quoted; its header names the embedding of its vectors."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from hippograph.backup.format import (
    RecordError,
    decode_properties,
    encode_properties,
    header,
    is_export,
    open_text,
)
from hippograph.backup.restore import Node, Relationship, batches, check
from hippograph.embedding import DEFAULT_SPEC, FLOAT32_256
from hippograph.kernel.errors import HippographError

SECRET = "sk-proj-Zq7vR2mK9pL4xN8bT3wY6cF1hJ5dG0aE"


def test_every_stored_type_survives_json() -> None:
    properties = {
        "content": "Caroline: I moved from Sweden.",
        "tags": ["travel", "family"],
        "observed_by": [],
        "access_count": 3,
        "importance": 0.7,
        "pinned": True,
        "captured_at": datetime(2023, 5, 8, 13, 56, 0, 123456, tzinfo=UTC),
        "embedding": [0.5, -0.25, 0.125, 1.0, 0.0, -1.0, 0.75, 0.0625, 0.3125],
        "weights": [0.1] * 9,  # not a float32 value: stays a plain list, exact
    }
    line = json.dumps(encode_properties(properties))
    encoded = json.loads(line)
    assert set(encoded["embedding"]) == {"$float32"} and encoded["weights"] == [0.1] * 9
    assert encoded["captured_at"] == {"$datetime": "2023-05-08T13:56:00.123456+00:00"}
    assert decode_properties(encoded) == properties


def test_a_time_in_another_zone_comes_back_in_utc() -> None:
    moment = datetime(2023, 5, 8, 15, 56, tzinfo=timezone(timedelta(hours=2)))
    decoded = decode_properties(json.loads(json.dumps(encode_properties({"at": moment}))))
    assert decoded["at"] == moment and decoded["at"].tzinfo == UTC


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ({"$datetime": SECRET}, "property 'at' is not an ISO-8601 time"),
        ({"$datetime": "2023-05-08T13:56:00"}, "property 'at' is a time without a zone"),
        ({"$float32": SECRET + "!"}, "property 'at' is not base64"),
        ({"$float32": "AAAA"}, None),
        ({"key": SECRET}, "property 'at' is an object"),
        ([[1, 2]], "property 'at' is a list of lists"),
        (float("nan"), "property 'at' is not a finite number"),
        ([0.5, float("inf"), -0.5], "property 'at' is not a finite number"),
        ([0.25] * 383 + [float("nan")], "property 'at' is not a finite number"),
    ],
)
def test_a_value_the_format_has_no_form_for_is_refused(value: object, says: str | None) -> None:
    if says is None:  # three bytes of base64 zeros: not a whole float32
        with pytest.raises(RecordError, match="whole number of float32"):
            decode_properties({"at": value})
        return
    with pytest.raises(RecordError) as error:
        decode_properties({"at": value})
    assert str(error.value).startswith(says) and SECRET not in str(error.value)


def test_a_vector_of_finite_floats_whose_sum_overflows_is_kept() -> None:
    big = [1.7e308, 1.7e308, -1.0]
    assert decode_properties({"v": big})["v"] == big


def test_a_property_name_that_is_not_ours_is_not_echoed() -> None:
    with pytest.raises(RecordError) as error:
        decode_properties({SECRET: {"x": 1}})
    assert SECRET not in str(error.value) and str(error.value).startswith("a property is an object")


def test_gzip_is_recognised_by_its_content(tmp_path: Path) -> None:
    header = {"format": "hippograph-export", "version": 1, "namespaces": ["x"]}
    for name in ("plain.jsonl", "packed.jsonl.gz"):
        with open_text(tmp_path / name, "w") as out:
            out.write(json.dumps(header) + "\n")
    (tmp_path / "packed.jsonl.gz").rename(tmp_path / "packed-renamed.jsonl")
    assert is_export(tmp_path / "plain.jsonl") and is_export(tmp_path / "packed-renamed.jsonl")
    (tmp_path / "captures.jsonl").write_text(json.dumps({"content": "hi"}) + "\n")
    assert not is_export(tmp_path / "captures.jsonl")


def _file(tmp_path: Path, first: dict[str, object]) -> Path:
    path = tmp_path / "export.jsonl"
    path.write_text(json.dumps(first) + "\n" + json.dumps({"end": {"nodes": 0, "relationships": 0}}) + "\n")
    return path


def test_the_header_names_the_embedding_and_an_import_reads_it(tmp_path: Path) -> None:
    first = header(["x"], datetime(2026, 11, 28, tzinfo=UTC), "1.0", DEFAULT_SPEC.name)
    assert first["embedding"] == "all-MiniLM-L6-v2/int8/128"
    assert check(_file(tmp_path, first)).embedding == DEFAULT_SPEC


def test_a_header_without_an_embedding_is_an_export_from_before_it_float32_at_256_tokens(tmp_path: Path) -> None:
    first = header(["x"], datetime(2026, 11, 28, tzinfo=UTC), "0.9", DEFAULT_SPEC.name)
    del first["embedding"]
    assert check(_file(tmp_path, first)).embedding == FLOAT32_256


@pytest.mark.parametrize("embedding", ["all-MiniLM-L12-v2/float16/512", "all-MiniLM-L6-v2/int8/100000", 128, SECRET])
def test_an_embedding_this_version_cannot_make_is_refused_on_line_1(tmp_path: Path, embedding: object) -> None:
    first = {**header(["x"], datetime(2026, 11, 28, tzinfo=UTC), "9.0", DEFAULT_SPEC.name), "embedding": embedding}
    with pytest.raises(HippographError) as error:
        check(_file(tmp_path, first))
    assert error.value.code == "BAD_INPUT" and error.value.details == {"line": 1}
    assert error.value.message == (
        "line 1: the header's embedding is not one this Hippograph makes; nothing was imported"
    )


def _export_order(namespaces: int, per_label: int) -> list[Node | Relationship]:
    """Records in the order an export writes them: each namespace's nodes label by label, then the
    relationships node by node (an episode's MENTIONS beside its IN_SESSION)."""
    nodes: list[Node | Relationship] = []
    relationships: list[Node | Relationship] = []
    for ns in range(namespaces):
        for label in ("Session", "Episode", "Entity"):
            nodes += [Node(label, {"id": f"{label}-{ns}-{i}", "namespace": f"n{ns}"}) for i in range(per_label)]
        for i in range(per_label):
            relationships.append(
                Relationship("IN_SESSION", ("Episode", f"Episode-{ns}-{i}"), ("Session", f"Session-{ns}-{i}"), {})
            )
            relationships.append(
                Relationship("MENTIONS", ("Episode", f"Episode-{ns}-{i}"), ("Entity", f"Entity-{ns}-{i}"), {})
            )
    return nodes + relationships


@pytest.mark.parametrize(("namespaces", "per_label", "size"), [(7, 3, 500), (4, 9, 10), (1, 1, 1), (3, 5, 2)])
def test_an_import_writes_full_batches_of_one_kind_with_every_node_before_a_relationship_to_it(
    namespaces: int, per_label: int, size: int
) -> None:
    records = _export_order(namespaces, per_label)
    written: set[tuple[str, str]] = set()
    out: list[Node | Relationship] = []
    batches_ = list(batches(records, size))
    for batch in batches_:
        assert 0 < len(batch) <= size
        assert len({(type(item), item.label if isinstance(item, Node) else item.type) for item in batch}) == 1
        for item in batch:
            if isinstance(item, Node):
                written.add((item.label, item.properties["id"]))
            else:
                assert item.start in written and item.end in written
        out += batch
    assert sorted(map(repr, out)) == sorted(map(repr, records))  # each record once
    # As few transactions as the batch size allows: one short batch per kind at most.
    kinds = 5  # three labels, two relationship types
    assert len(batches_) <= len(records) // size + kinds
