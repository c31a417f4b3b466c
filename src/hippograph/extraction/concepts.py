"""Concepts: the common-noun phrases a text is about ("pottery class", "adoption agency"), keyed by
their lemmas so that "my pottery classes" and "the pottery class" meet at one node.

A concept is a run of common nouns (spaCy's NOUN tag, never PROPN, never inside an entity span:
names are entities, and speakers are never concepts) without stop lemmas; a run of several nouns
yields the whole compound and each noun, so "pottery class" and "pottery" both link. Only the
tagger and lemmatizer are needed to find them.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from spacy.tokens import Doc, Span, Token

from hippograph.extraction.model import Concept
from hippograph.kernel.rules import load_rules


@dataclass(frozen=True, slots=True)
class _Rules:
    max_words: int
    min_chars: int
    max_per_text: int
    stop_lemmas: frozenset[str]


def find_concepts(doc: Doc, offset: int = 0) -> tuple[Concept, ...]:
    """The concepts of ``doc``, each once (the first place it appears), compounds before single
    nouns, at most ``max_per_text``; ``offset`` shifts character offsets (a turn's body)."""
    rules = _rules()
    sentences = {token.i: index for index, sentence in enumerate(doc.sents) for token in sentence}
    compounds: dict[str, Concept] = {}
    singles: dict[str, Concept] = {}
    for run in _noun_runs(doc, rules):
        for words in _phrases(run, rules):
            key = " ".join(_lemma(token) for token in words)
            target = compounds if len(words) > 1 else singles
            if key not in compounds and key not in singles:
                start, end = words[0].idx, words[-1].idx + len(words[-1])
                target[key] = Concept(key, doc.text[start:end], start + offset, end + offset, sentences[words[0].i])
    return (*compounds.values(), *singles.values())[: rules.max_per_text]


def concept_keys(doc: Doc, *, in_names: bool = False) -> list[str]:
    """Every concept key of ``doc`` with no cap: what a recall query may be looking for. With
    ``in_names``, nouns inside entity spans count too."""
    rules = _rules()
    keys = dict.fromkeys(
        " ".join(_lemma(t) for t in words) for run in _noun_runs(doc, rules, in_names) for words in _phrases(run, rules)
    )
    return list(keys)


def sentence_concept_keys(doc: Doc, kept: Collection[str]) -> list[tuple[str, ...]]:
    """Per sentence of ``doc``, the keys of ``kept`` (the text's capped concepts) it mentions:
    what a fact stated by that sentence is about."""
    rules = _rules()
    out = []
    for sentence in doc.sents:
        keys = dict.fromkeys(
            " ".join(_lemma(t) for t in words) for run in _noun_runs(sentence, rules) for words in _phrases(run, rules)
        )
        out.append(tuple(key for key in keys if key in kept))
    return out


def _noun_runs(doc: Doc | Span, rules: _Rules, in_names: bool = False) -> Iterator[list[Token]]:
    run: list[Token] = []
    for token in doc:
        if _is_concept_word(token, rules, in_names):
            run.append(token)
            continue
        if run:
            yield run
        run = []
    if run:
        yield run


def _phrases(run: Sequence[Token], rules: _Rules) -> Iterator[Sequence[Token]]:
    """The compound (its last ``max_words`` nouns, the head last) and, when it has several, each noun."""
    compound = run[-rules.max_words :]
    yield compound
    if len(compound) > 1:
        for token in compound:
            yield [token]


def _is_concept_word(token: Token, rules: _Rules, in_names: bool = False) -> bool:
    return (
        token.pos_ == "NOUN"
        and (in_names or not token.ent_type_)
        and token.is_alpha
        and not token.is_stop
        and len(token.lemma_) >= rules.min_chars
        and _lemma(token) not in rules.stop_lemmas
    )


def _lemma(token: Token) -> str:
    return token.lemma_.lower()


@cache
def _rules() -> _Rules:
    raw = load_rules("concepts")
    return _Rules(raw["max_words"], raw["min_chars"], raw["max_per_text"], frozenset(raw["stop_lemmas"]))
