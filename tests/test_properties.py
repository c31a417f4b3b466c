"""Invariants the code states, checked over generated inputs rather than chosen examples."""

from __future__ import annotations

import re
import string
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.hostile import PROPERTY_SETTINGS, TAG, as_read, spelled_tag, surviving_windows, texts_with_secrets

from hippograph.kernel.errors import HippographError
from hippograph.kernel.lucene import MAX_TERMS, fulltext_query
from hippograph.kernel.retention import POLICIES, retention
from hippograph.kernel.text.clean import clean_content
from hippograph.kernel.text.normalize import content_hash, hash_basis, storage_form
from hippograph.kernel.validation import NAMESPACE, validate_namespace
from hippograph.lifecycle.token import sign, verify
from hippograph.recall.fusion import Ranked, reciprocal_rank_fusion
from hippograph.recall.request import Channel
from hippograph.store.search import namespace_token, scoped_query

# --- cleaning: sanitize, scrub and normalize, in any interleaving ---------------------------------


# What the sanitizer excises wherever it stands, even inside a word: a cut secret is whole again.
MARKERS = st.one_of(
    spelled_tag(), st.sampled_from(["<|im_end|>", "<|eot_id|>", "[INST]", "<</SYS>>", "<start_of_turn>"])
)


@st.composite
def secrets_among_markers(draw: st.DrawFn) -> tuple[str, list[str]]:
    """Generated secrets with markers cut in anywhere, inside the secrets too."""
    text, secrets = draw(texts_with_secrets())
    cuts = sorted(draw(st.lists(st.integers(0, len(text)), max_size=4)))
    pieces, start = [], 0
    for cut in cuts:
        pieces += [text[start:cut], draw(MARKERS)]
        start = cut
    return "".join([*pieces, text[start:]]), secrets


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(secrets_among_markers())
def test_no_secret_or_tag_survives_cleaning_and_cleaning_again_changes_nothing(sample: tuple[str, list[str]]) -> None:
    text, secrets = sample
    cleaned = clean_content(text)
    assert TAG.search(as_read(cleaned.text)) is None
    for secret in secrets:
        assert not surviving_windows(secret, cleaned.text), (secret, cleaned.text)
    again = clean_content(cleaned.text)
    assert (again.text, again.redactions, again.excised) == (cleaned.text, (), ())


# --- normalization and hashing -------------------------------------------------------------------


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(st.text())
def test_storage_form_and_hash_basis_are_idempotent(text: str) -> None:
    assert storage_form(storage_form(text)) == storage_form(text)
    assert hash_basis(hash_basis(text)) == hash_basis(text)


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(st.text())
def test_storing_a_text_does_not_change_its_identity(text: str) -> None:
    assert content_hash(storage_form(text)) == content_hash(text)


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(
    st.text(alphabet=string.ascii_letters + string.digits + " ,'", min_size=1),
    st.sampled_from(["", ".", "!", "?!", " ...", "…"]),
    st.sampled_from([" ", "  ", "\t", "\n"]),
)
def test_case_spacing_and_trailing_punctuation_make_no_new_memory(text: str, ending: str, space: str) -> None:
    variant = space + text.upper().replace(" ", space) + ending
    assert content_hash(variant) == content_hash(text)


# --- the full-text query and the namespace scope ---------------------------------------------------

_LUCENE_SAFE = re.compile(r"\w+( \w+)*")


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(st.text())
def test_the_fulltext_query_holds_only_distinct_lowercase_words(text: str) -> None:
    query = fulltext_query(text)
    if query is None:
        return
    assert _LUCENE_SAFE.fullmatch(query), query
    terms = query.split(" ")
    assert len(terms) == len(set(terms)) <= MAX_TERMS
    # Lucene's operators are upper-case words; every term is case-folded.
    assert all(term == term.casefold() for term in terms)


namespaces = st.from_regex(NAMESPACE, fullmatch=True)


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(namespaces, namespaces)
def test_namespace_tokens_are_one_word_each_and_never_shared(first: str, second: str) -> None:
    for namespace in (first, second):
        validate_namespace(namespace)
        assert re.fullmatch(r"ns[0-9a-f]+", namespace_token(namespace))
    assert (namespace_token(first) == namespace_token(second)) == (first == second)
    assert scoped_query(first, "kayak") != scoped_query(second, "kayak") or first == second


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(st.text(max_size=70))
def test_a_namespace_is_valid_only_as_the_whole_pattern(text: str) -> None:
    try:
        validate_namespace(text)
    except HippographError:
        assert not NAMESPACE.fullmatch(text)
    else:
        assert NAMESPACE.fullmatch(text) and "\n" not in text


@pytest.mark.parametrize("namespace", ["demo\n", "demo\r\n", "\ndemo", "de\nmo"])
def test_a_line_break_makes_no_namespace(namespace: str) -> None:
    with pytest.raises(HippographError):
        validate_namespace(namespace)


# --- reciprocal rank fusion ---------------------------------------------------------------------

_IDS = st.sampled_from([f"m{i}" for i in range(12)])
rankings = st.dictionaries(
    st.sampled_from(list(Channel)),
    st.lists(_IDS, unique=True, max_size=10).map(lambda ids: [Ranked(i, 1.0, "Episode") for i in ids]),
    min_size=1,
)


def _order(fused: list) -> list[tuple[str, float]]:
    return [(hit.id, hit.score) for hit in fused]


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(rankings, st.randoms(use_true_random=False), st.integers(1, 100))
def test_fusion_does_not_depend_on_the_order_of_channels(ranked: dict, rng: object, k: int) -> None:
    channels = list(ranked)
    rng.shuffle(channels)  # type: ignore[attr-defined]
    shuffled = {channel: ranked[channel] for channel in channels}
    assert _order(reciprocal_rank_fusion(shuffled, k=k)) == _order(reciprocal_rank_fusion(ranked, k=k))


@PROPERTY_SETTINGS
@given(rankings, st.integers(1, 100), st.integers(0, 15))
def test_fusion_limited_to_n_is_the_first_n_of_the_whole(ranked: dict, k: int, limit: int) -> None:
    whole = reciprocal_rank_fusion(ranked, k=k, supporting={Channel.HINT: 3})
    assert reciprocal_rank_fusion(ranked, k=k, supporting={Channel.HINT: 3}, limit=limit) == whole[:limit]


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(rankings, st.data(), st.integers(1, 100))
def test_a_better_rank_in_one_channel_never_hurts(ranked: dict, data: st.DataObject, k: int) -> None:
    channel = data.draw(st.sampled_from([c for c in ranked if len(ranked[c]) >= 2] or [None]))
    if channel is None:
        return
    hits = list(ranked[channel])
    at = data.draw(st.integers(1, len(hits) - 1))
    promoted = hits[at].id
    hits[at - 1], hits[at] = hits[at], hits[at - 1]
    before = reciprocal_rank_fusion(ranked, k=k)
    after = reciprocal_rank_fusion({**ranked, channel: hits}, k=k)
    score = {hit.id: hit.score for hit in before}
    assert {hit.id: hit.score for hit in after}[promoted] > score[promoted]
    position = [hit.id for hit in before].index(promoted)
    assert [hit.id for hit in after].index(promoted) <= position


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(rankings, st.integers(1, 100), st.integers(0, 20))
def test_a_hit_only_a_supporting_channel_found_never_outranks_another_channels_best(
    ranked: dict, k: int, offset: int
) -> None:
    fused = reciprocal_rank_fusion(ranked, k=k, supporting={Channel.HINT: offset})
    found_by = {hit.id: {c.channel for c in hit.channels} for hit in fused}
    score = {hit.id: hit.score for hit in fused}
    direct_best = {
        hit.id for channel, hits in ranked.items() if channel is not Channel.HINT for hit in hits[: offset + 1]
    }
    for memory_id, channels in found_by.items():
        if channels == {Channel.HINT}:
            assert all(score[memory_id] <= score[best] for best in direct_best)


# --- retention ------------------------------------------------------------------------------------

_NOW = datetime(2026, 1, 1, tzinfo=UTC)
_DAYS = st.floats(0, 365 * 1000, allow_nan=False)


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(st.sampled_from(sorted(POLICIES)), _DAYS, _DAYS, st.integers(0, 10**6), st.floats(0.01, 100))
def test_retention_stays_in_range_and_moves_the_right_way(
    kind: str, age: float, later: float, accesses: int, scale: float
) -> None:
    created = _NOW - timedelta(days=age)

    def kept(now: datetime = _NOW, count: int = accesses, accessed: datetime | None = None) -> float:
        return retention(
            kind, now=now, created_at=created, last_accessed_at=accessed, access_count=count, stability_scale=scale
        )

    value = kept()
    assert 0 < value <= 1
    assert 0 < kept(now=_NOW + timedelta(days=later)) <= value  # time only takes away
    assert kept(count=accesses + 1) >= value  # use only adds
    assert kept(accessed=_NOW) >= value  # and so does a recent access
    assert retention(kind, now=_NOW, created_at=created, pinned=True) == 1.0


# --- confirm tokens -------------------------------------------------------------------------------

_KEY = b"k" * 32
_TOKEN_IDS = st.lists(st.text(min_size=1, max_size=6), min_size=1, max_size=4, unique=True)


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(namespaces, _TOKEN_IDS, st.data())
def test_a_confirm_token_verifies_for_its_own_ids_namespace_and_time_only(
    namespace: str, ids: list[str], data: st.DataObject
) -> None:
    expires = _NOW + timedelta(minutes=10)
    token = sign(_KEY, namespace, ids, expires)
    assert verify(_KEY, namespace, list(reversed(ids)), token, _NOW)
    assert not verify(_KEY, namespace, ids, token, expires + timedelta(seconds=1))
    assert not verify(b"other" * 8, namespace, ids, token, _NOW)
    other_namespace = data.draw(namespaces.filter(lambda other: other != namespace))
    assert not verify(_KEY, other_namespace, ids, token, _NOW)
    other_ids = data.draw(_TOKEN_IDS.filter(lambda other: set(other) != set(ids)))
    assert not verify(_KEY, namespace, other_ids, token, _NOW)


def test_ids_cannot_spell_another_set_of_ids() -> None:
    token = sign(_KEY, "ns", ["a\nb"], _NOW + timedelta(minutes=10))
    assert verify(_KEY, "ns", ["a\nb"], token, _NOW)
    assert not verify(_KEY, "ns", ["a", "b"], token, _NOW)
