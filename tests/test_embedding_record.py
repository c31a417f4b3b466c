"""A store records the embedding its vectors were made with and keeps it: an upgrade whose settings
name another embedding never mixes two kinds of vectors in one store, nor does an import.

The decisions (which embedding a store opens with, what an import does) are functions of plain
values and tested so; the suite's store is only read here, since every worker shares it (on Neo4j
one database for all of them). The record changing in a store of its own, by an import, is in
tests/test_backup.py."""

from __future__ import annotations

import pytest

from hippograph.embedding import DEFAULT_SPEC, FLOAT32_256, EncoderSpec
from hippograph.embedding.store_record import (
    ImportEmbedding,
    UnknownEmbedding,
    at_start,
    exported_spec,
    on_import,
    parse_recorded,
    store_spec,
)
from hippograph.kernel.config import ModelSettings
from hippograph.runtime import Runtime

INT8_128 = EncoderSpec(max_tokens=128, int8=True)
INT8_256 = EncoderSpec(max_tokens=256, int8=True)


def test_the_settings_name_int8_weights_cutting_at_128_tokens() -> None:
    assert EncoderSpec.of(ModelSettings()) == DEFAULT_SPEC == INT8_128
    assert DEFAULT_SPEC.name == "all-MiniLM-L6-v2/int8/128"
    assert EncoderSpec.parse(FLOAT32_256.name) == FLOAT32_256


@pytest.mark.parametrize(
    "name",
    ["all-MiniLM-L12-v2/float16/512", "all-MiniLM-L6-v2/int4/128", "all-MiniLM-L6-v2/int8/4096", "", "int8"],
)
def test_an_embedding_this_version_cannot_make_is_refused_by_name(name: str) -> None:
    with pytest.raises(UnknownEmbedding, match=f"{name!r}.*cannot make"):
        parse_recorded(name)


@pytest.mark.parametrize(
    ("recorded", "holds_vectors", "configured", "opened"),
    [
        (None, False, INT8_128, INT8_128),  # a new store: the settings'
        (None, True, INT8_128, FLOAT32_256),  # vectors from before the record
        (FLOAT32_256, True, INT8_128, FLOAT32_256),  # kept, whatever the settings say
        (INT8_256, False, FLOAT32_256, INT8_256),  # kept even before it holds a vector
    ],
)
def test_a_store_opens_with_its_record_and_without_one_by_what_it_holds(
    recorded: EncoderSpec | None, holds_vectors: bool, configured: EncoderSpec, opened: EncoderSpec
) -> None:
    assert at_start(recorded, holds_vectors, configured) == opened


@pytest.mark.parametrize(
    ("recorded", "holds_vectors", "exported", "decision"),
    [
        (None, False, INT8_128, ImportEmbedding.ADOPT),  # a new store takes the file's
        (None, False, FLOAT32_256, ImportEmbedding.ADOPT),
        (INT8_128, False, FLOAT32_256, ImportEmbedding.ADOPT),  # recorded, but no vector to mix with
        (INT8_128, False, INT8_128, ImportEmbedding.KEEP),
        (INT8_128, True, INT8_128, ImportEmbedding.KEEP),
        (INT8_128, True, FLOAT32_256, ImportEmbedding.REFUSE),
        (FLOAT32_256, True, INT8_128, ImportEmbedding.REFUSE),
        (INT8_128, True, INT8_256, ImportEmbedding.REFUSE),  # the cut alone is another embedding
        (None, True, FLOAT32_256, ImportEmbedding.KEEP),  # both from before the record
        (None, True, INT8_128, ImportEmbedding.REFUSE),
    ],
)
def test_an_import_adopts_keeps_or_refuses_the_files_embedding(
    recorded: EncoderSpec | None, holds_vectors: bool, exported: EncoderSpec, decision: ImportEmbedding
) -> None:
    assert on_import(recorded, holds_vectors, exported) is decision


def test_the_suites_store_recorded_the_settings_embedding_and_embeds_with_it(runtime: Runtime) -> None:
    configured = EncoderSpec.of(runtime.settings.models)
    assert runtime.store.read("embedding_model") == [{"name": configured.name}]
    assert runtime.embedder.spec == configured  # type: ignore[attr-defined]
    assert exported_spec(runtime.store) == configured


def test_a_store_keeps_its_embedding_whatever_the_settings_say(runtime: Runtime) -> None:
    """Opening the suite's store as a process configured otherwise would: nothing is written."""
    recorded = exported_spec(runtime.store)
    other = FLOAT32_256 if recorded != FLOAT32_256 else INT8_128
    assert store_spec(runtime.store, other) == recorded
    assert runtime.store.read("embedding_model") == [{"name": recorded.name}]
