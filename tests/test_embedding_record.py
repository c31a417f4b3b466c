"""A store records the embedding its vectors were made with and keeps it: an upgrade whose settings
name another embedding never mixes two kinds of vectors in one store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support.statements import run_test_statement

from hippograph.capture import service
from hippograph.embedding import DEFAULT_SPEC, FLOAT32_256, EncoderSpec
from hippograph.embedding.store_record import UnknownEmbedding, store_spec
from hippograph.kernel.config import ModelSettings
from hippograph.kernel.model import CaptureInput
from hippograph.runtime import Runtime

INT8_128 = EncoderSpec(max_tokens=128, int8=True)


@pytest.fixture
def record_restored(runtime: Runtime) -> Iterator[str]:
    """The suite's store's record, put back after the test changed it."""
    [row] = runtime.store.read("embedding_model")
    yield str(row["name"])
    run_test_statement(runtime.settings, "set_embedding_model", model=row["name"])


def test_the_settings_name_int8_weights_cutting_at_128_tokens() -> None:
    assert EncoderSpec.of(ModelSettings()) == DEFAULT_SPEC == INT8_128
    assert DEFAULT_SPEC.name == "all-MiniLM-L6-v2/int8/128"
    assert EncoderSpec.parse(FLOAT32_256.name) == FLOAT32_256


def test_a_new_store_records_the_settings_embedding_and_embeds_with_it(runtime: Runtime) -> None:
    configured = EncoderSpec.of(runtime.settings.models)
    assert runtime.store.read("embedding_model") == [{"name": configured.name}]
    assert runtime.embedder.spec == configured  # type: ignore[attr-defined]


def test_a_store_keeps_its_embedding_whatever_the_settings_say(runtime: Runtime, record_restored: str) -> None:
    other = FLOAT32_256 if EncoderSpec.parse(record_restored) != FLOAT32_256 else INT8_128
    assert store_spec(runtime.store, other) == EncoderSpec.parse(record_restored)
    assert runtime.store.read("embedding_model") == [{"name": record_restored}]


def test_a_store_from_before_the_record_holds_float32_vectors_cut_at_256_tokens(
    runtime: Runtime, namespace: str, record_restored: str
) -> None:
    service.capture(runtime, [CaptureInput("Melanie signed up for a pottery class.", namespace=namespace, agent="t")])
    run_test_statement(runtime.settings, "set_embedding_model", model=None)
    assert runtime.store.read("embedding_model") == []

    assert store_spec(runtime.store, INT8_128) == FLOAT32_256
    assert runtime.store.read("embedding_model") == [{"name": FLOAT32_256.name}]


def test_an_embedding_this_version_cannot_make_is_refused_by_name(runtime: Runtime, record_restored: str) -> None:
    run_test_statement(runtime.settings, "set_embedding_model", model="all-MiniLM-L12-v2/float16/512")
    with pytest.raises(UnknownEmbedding, match="'all-MiniLM-L12-v2/float16/512'.*cannot make"):
        store_spec(runtime.store, DEFAULT_SPEC)
